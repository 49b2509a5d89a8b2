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

export const similarity = (a: string, b: string): number => {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  const [x, y] = a < b ? [a, b] : [b, a];
  let row = remembered.get(x);
  let value = row?.get(y);
  if (value === undefined) {
    value = jaroWinkler(a, b);
    if (rememberedCount >= REMEMBERED) {
      remembered.clear();
      rememberedCount = 0;
      row = undefined;
    }
    if (!row) remembered.set(x, (row = new Map()));
    row.set(y, value);
    rememberedCount++;
  }
  return value;
};

/** Unremembered: for values that rarely meet twice (e-mail local parts), which would crowd out the rest. */
export const similarityOnce = (a: string, b: string): number =>
  a === b ? 1 : a === '' || b === '' ? 0 : jaroWinkler(a, b);

/** Whether two lists of double metaphone codes share one. */
export const soundsAlike = (a: readonly string[], b: readonly string[]): boolean =>
  a.some((code) => b.includes(code));
