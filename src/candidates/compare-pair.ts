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
  const fields = people.fixed;
  const xFirst = fields.firstName(i);
  const xLast = fields.lastName(i);
  const yFirst = fields.firstName(j);
  const yLast = fields.lastName(j);
  let first = fields.firstNameLevel(xFirst, yFirst, nicknames);
  let last = fields.lastNameLevel(xLast, yLast);
  let swapped = false;
  // Swapped names agree at least as a typo does, which almost always keeps the first letter.
  if (
    (first < 3 || last < 3) &&
    (fields.initial(xFirst) === fields.initial(yLast) || fields.initial(xLast) === fields.initial(yFirst))
  ) {
    const swappedFirst = fields.firstNameLevel(xFirst, yLast, nicknames);
    const swappedLast = fields.lastNameLevel(xLast, yFirst);
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
  if (email >= 0 && email < 3 && fields.localsFromName(i) && fields.localsFromName(j)) email = NULL;
  into[at + FIELD.email] = email;
  const household = last >= 3 && first === 0;
  into[at + FIELD.phone] = household ? NULL : people.phoneLevel(i, j);
  into[at + FIELD.company] = fields.companyLevel(i, j);
  into[at + FIELD.job] = fields.jobLevel(i, j);
  into[at + FIELD.birthday] = fields.birthdayLevel(i, j);
  into[at + FIELD.street] = household ? NULL : fields.streetLevel(i, j);
  into[at + FIELD.postcode] = fields.postcodeLevel(i, j);
  into[at + FIELD.city] = fields.cityLevel(i, j);
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
