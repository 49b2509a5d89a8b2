/**
 * One pair's comparison vector: a level per field (comparisons.ts), with evidence counted once.
 *
 * - First and last name written the other way round on one side compare as if in place.
 * - An e-mail local part made from the person's name (`robert.smith`, `rsmith`) agreeing with
 *   another made from the same name says only that the names agree, which they already do: it is
 *   not counted again.
 * - A phone or street shared by two people with one last name and clearly different first names
 *   is a household's (relatives), not evidence that they are one person.
 */
import { ComparablePeople } from './comparable-people.js';
import {
  birthdayLevel,
  companyLevel,
  exactLevel,
  FIELD,
  FIELD_COUNT,
  firstNameLevel,
  lastNameLevel,
  NULL,
  textLevel,
} from './comparisons.js';
import type { Nicknames } from './nicknames.js';
import type { Prepared } from './prepare.js';

export { madeFromName } from './name-locals.js';

export interface PairComparison {
  levels: Int8Array;
  /** The names compared with B's first and last name exchanged. */
  swapped: boolean;
}

/**
 * Compares people i and j into `into` at `at` (a vector of FIELD_COUNT levels); returns whether
 * the names were swapped.
 */
export const comparePair = (
  people: ComparablePeople,
  i: number,
  j: number,
  nicknames: Nicknames,
  into: Int8Array,
  at = 0,
): boolean => {
  const a = people.prepared[i]!;
  const b = people.prepared[j]!;
  let first = firstNameLevel(a, b, b.first, b.firstCodes, nicknames);
  let last = lastNameLevel(a, b.last, b.lastCodes);
  let swapped = false;
  // Swapped names agree at least as a typo does, which almost always keeps the first letter.
  if ((first < 3 || last < 3) && (a.first[0] === b.last[0] || a.last[0] === b.first[0])) {
    const swappedFirst = firstNameLevel(a, b, b.last, b.lastCodes, nicknames);
    const swappedLast = lastNameLevel(a, b.first, b.firstCodes);
    // Swapped when that agrees better, and no name then merely differs; a side's only name may
    // stand in the other's place (`Shaw` as last name, `Shaw Eleanor`).
    if (
      agree(swappedFirst) &&
      agree(swappedLast) &&
      Math.max(swappedFirst, swappedLast) >= 3 &&
      sum(swappedFirst, swappedLast) > sum(first, last)
    ) {
      first = swappedFirst;
      last = swappedLast;
      swapped = true;
    }
  }
  into[at + FIELD.first] = first;
  into[at + FIELD.last] = last;
  let email = people.emailLevel(i, j);
  // Local parts made from each side's own name say what the names say, agreeing or not; only the
  // same address is evidence of its own.
  if (email >= 0 && email < 3 && a.localsFromName && b.localsFromName) email = NULL;
  into[at + FIELD.email] = email;
  const household = last >= 3 && first === 0;
  into[at + FIELD.phone] = household ? NULL : people.phoneLevel(i, j);
  into[at + FIELD.company] = companyLevel(a.company, b.company);
  into[at + FIELD.job] = exactLevel(a.jobTitle, b.jobTitle);
  into[at + FIELD.birthday] = birthdayLevel(a.birth, b.birth);
  into[at + FIELD.street] = household ? NULL : textLevel(a.street, b.street, 0.88);
  into[at + FIELD.postcode] = exactLevel(a.postcode, b.postcode);
  into[at + FIELD.city] = textLevel(a.city, b.city);
  return swapped;
};

/** Two people compared on their own (a record and a target contact; tests). */
export const comparePrepared = (
  a: Prepared,
  b: Prepared,
  nicknames: Nicknames,
  into: Int8Array,
  at = 0,
): boolean => comparePair(new ComparablePeople([a, b]), 0, 1, nicknames, into, at);

const agree = (level: number): boolean => level === NULL || level >= 2;
const sum = (x: number, y: number): number => Math.max(x, 0) + Math.max(y, 0);

export const newLevels = (): Int8Array => new Int8Array(FIELD_COUNT);
