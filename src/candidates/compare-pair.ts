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
import { FIELD, FIELD_COUNT, NULL } from './comparisons.js';
import { FlatPeople } from './flat-people.js';
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
  // The people's entries by number: a person's text is read only where numbers cannot tell.
  const x = people.at(i);
  const y = people.at(j);
  const aFirst = people.first(x);
  const aLast = people.last(x);
  const bFirst = people.first(y);
  const bLast = people.last(y);
  let first = people.firstNameLevel(i, j, aFirst, bFirst, false, nicknames);
  let last = people.lastNameLevel(i, j, aLast, bLast, false);
  let swapped = false;
  // Swapped names agree at least as a typo does, which almost always keeps the first letter.
  if ((first < 3 || last < 3) && people.initialsCross(x, y)) {
    const swappedFirst = people.firstNameLevel(i, j, aFirst, bLast, true, nicknames);
    const swappedLast = people.lastNameLevel(i, j, aLast, bFirst, true);
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
  // Local parts made from each side's own name say what the names say, agreeing or not; only the
  // same address is evidence of its own.
  into[at + FIELD.email] =
    people.localsFromName(x) && people.localsFromName(y)
      ? people.sameAddressLevel(i, j, x, y)
      : people.emailLevel(i, j, x, y);
  const household = last >= 3 && first === 0;
  into[at + FIELD.phone] = household ? NULL : people.phoneLevel(i, j, x, y);
  into[at + FIELD.company] = people.companyLevel(i, j, x, y);
  into[at + FIELD.job] = people.jobLevel(x, y);
  into[at + FIELD.birthday] = people.birthdayLevel(x, y);
  into[at + FIELD.street] = household ? NULL : people.streetLevel(i, j, x, y);
  into[at + FIELD.postcode] = people.postcodeLevel(x, y);
  into[at + FIELD.city] = people.cityLevel(i, j, x, y);
  return swapped;
};

/** Two people compared on their own (a record and a target contact; tests). */
export const comparePrepared = (
  a: Prepared,
  b: Prepared,
  nicknames: Nicknames,
  into: Int8Array,
  at = 0,
): boolean => comparePair(new ComparablePeople(FlatPeople.of([a, b])), 0, 1, nicknames, into, at);

const agree = (level: number): boolean => level === NULL || level >= 2;
const sum = (x: number, y: number): number => Math.max(x, 0) + Math.max(y, 0);

export const newLevels = (): Int8Array => new Int8Array(FIELD_COUNT);
