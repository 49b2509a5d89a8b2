/**
 * String similarity and phonetic agreement, as the comparison levels use them. The same few
 * thousand names, companies and cities meet again and again across pairs, so a similarity is
 * remembered per pair of distinct values (a bounded table, emptied when full).
 */
import jaroWinkler from 'jaro-winkler';

/** Pairs of values remembered at most: a few megabytes. */
const REMEMBERED = 100_000;
/** By the smaller value, then the other: a look-up makes no key string. */
const remembered = new Map<string, Map<string, number>>();
let rememberedCount = 0;
/** Times the table was emptied: what was worked out from its values before may be stale. */
let generation = 0;

/**
 * A number that changes whenever the table forgets: calls that met only remembered pairs, made
 * again under the same number, would meet only remembered pairs again and change nothing.
 */
export const similarityGeneration = (): number => generation;

export const similarity = (a: string, b: string): number => {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  // The smaller first, without an array made per call: this runs for every compared pair.
  const x = a < b ? a : b;
  const y = x === a ? b : a;
  let row = remembered.get(x);
  let value = row?.get(y);
  if (value === undefined) {
    value = jaroWinkler(a, b);
    if (rememberedCount >= REMEMBERED) {
      remembered.clear();
      rememberedCount = 0;
      generation++;
      row = undefined;
    }
    if (!row) remembered.set(x, (row = new Map()));
    row.set(y, value);
    rememberedCount++;
  }
  return value;
};

/** Per character code: how many of the first value's characters are not yet matched. */
const unmatched = new Int32Array(65_536);

/**
 * At least as high as `jaroWinkler(a, b)`, from the characters the two have in common: Jaro
 * matches no more characters than the values share (c), so it is at most (c/|a| + c/|b| + 1) / 3,
 * and the prefix bonus (four characters at most, above 0.7) adds at most 0.4 of what is left.
 * Counting shared characters is linear and allocates nothing, where the library allocates per
 * call; most pairs of local parts are far apart, and need not be measured. (Not for the remembered
 * similarities: the library's value depends on the order of the two, and the table keeps the
 * first order met, so what it holds must stay as it was.)
 */
const similarityBound = (a: string, b: string): number => {
  for (let i = 0; i < a.length; i++) unmatched[a.charCodeAt(i)]!++;
  let common = 0;
  for (let j = 0; j < b.length; j++) {
    const c = b.charCodeAt(j);
    if (unmatched[c]! > 0) {
      unmatched[c]!--;
      common++;
    }
  }
  for (let i = 0; i < a.length; i++) unmatched[a.charCodeAt(i)] = 0;
  const jaro = (common / a.length + common / b.length + 1) / 3;
  return jaro > 0.7 ? jaro + 0.4 * (1 - jaro) : jaro;
};

/** Below this of the threshold, a bound is surely below the similarity's value too (rounding). */
const ROUNDING = 1e-9;

/**
 * Whether the similarity of a and b reaches `threshold`, measuring only pairs whose bound reaches
 * it. Unremembered: for values that rarely meet twice (e-mail local parts), which would crowd
 * out the rest.
 */
export const similarOnce = (a: string, b: string, threshold: number): boolean => {
  if (a === b) return true;
  if (a === '' || b === '') return threshold <= 0;
  return similarityBound(a, b) >= threshold - ROUNDING && jaroWinkler(a, b) >= threshold;
};

/** Whether two lists of double metaphone codes share one. */
export const soundsAlike = (a: readonly string[], b: readonly string[]): boolean => {
  for (const code of a) if (b.includes(code)) return true;
  return false;
};
