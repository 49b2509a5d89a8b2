/**
 * Whether an e-mail local part is made from the person's own name (`robertsmith`, `rsmith84`,
 * `smith.r`, or a typo of one). Two such local parts agreeing say only that the names agree; the
 * comparison of the names already counts that.
 */
import { similarityGeneration, similarity } from './similarity.js';

export interface NameParts {
  first: string;
  last: string;
  /** The formal names the first name may stand for, itself first. */
  firstRoots: readonly string[];
}

const DIGITS = /\d+/gu;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * Whether the local part without its digits is the first name then the last (`robertsmith84`):
 * most are, and that is the first form tried, so it is known true without making a string or
 * measuring a similarity.
 */
const isFirstThenLast = (local: string, first: string, last: string): boolean => {
  const total = first.length + last.length;
  let k = 0;
  for (let i = 0; i < local.length; i++) {
    const code = local.charCodeAt(i);
    if (code >= ZERO && code <= NINE) continue;
    if (k === total) return false;
    if (code !== (k < first.length ? first.charCodeAt(k) : last.charCodeAt(k - first.length))) return false;
    k++;
  }
  return k === total;
};

/** The forms of the name, tried in order: the similarities measured, and remembered, stay as they were. */
const madeFromLetters = (letters: string, person: NameParts): boolean => {
  const { first, last } = person;
  const made = [
    first + last,
    last + first,
    first[0]! + last,
    first + last[0]!,
    last + first[0]!,
    last[0]! + first,
    first,
    last,
  ];
  for (const root of person.firstRoots) made.push(root + last, root[0]! + last);
  return made.some((form) => form === letters || similarity(form, letters) >= 0.92);
};

/** `robertsmith`, `smithrobert`, `rsmith`, `roberts`, `robert`, `smith`, with digits or not, or a typo of one. */
export const madeFromName = (local: string, person: NameParts): boolean => {
  const { first, last } = person;
  if (first === '' || last === '') return false;
  if (isFirstThenLast(local, first, last)) return true;
  const letters = local.replace(DIGITS, '');
  return letters !== '' && madeFromLetters(letters, person);
};

/** Answers remembered at most; emptied when full. */
const KNOWN = 100_000;

/**
 * madeFromName, its answer remembered per local part's letters and name: people who share a name
 * and an address pattern are many. An answer is given again only while the similarity table has
 * forgotten nothing since it was worked out, so skipping the work leaves that table as the work
 * would have (every pair it measured is still remembered there).
 */
export class NameLocals {
  /** By first name, last name and letters: the table's generation when worked out, times two, plus the answer. */
  private readonly known = new Map<string, Map<string, Map<string, number>>>();
  private size = 0;

  madeFromName(local: string, person: NameParts): boolean {
    const { first, last } = person;
    if (first === '' || last === '') return false;
    if (isFirstThenLast(local, first, last)) return true;
    const letters = local.replace(DIGITS, '');
    if (letters === '') return false;
    // Nested by the names, which people share and whose hashes are kept: no key string is made.
    let byLast = this.known.get(first);
    if (!byLast) this.known.set(first, (byLast = new Map()));
    let byLetters = byLast.get(last);
    if (!byLetters) byLast.set(last, (byLetters = new Map()));
    const generation = similarityGeneration();
    const known = byLetters.get(letters);
    if (known !== undefined && Math.floor(known / 2) === generation) return known % 2 === 1;
    const made = madeFromLetters(letters, person);
    if (similarityGeneration() === generation) {
      if (this.size >= KNOWN) {
        this.known.clear();
        this.size = 0;
      } else {
        if (known === undefined) this.size++;
        byLetters.set(letters, generation * 2 + (made ? 1 : 0));
      }
    }
    return made;
  }
}
