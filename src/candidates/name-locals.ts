/**
 * Whether an e-mail local part is made from the person's own name (`robertsmith`, `rsmith84`,
 * `smith.r`, or a typo of one). Two such local parts agreeing say only that the names agree; the
 * comparison of the names already counts that.
 */
import { similarity } from './similarity.js';

export interface NameParts {
  first: string;
  last: string;
  /** The formal names the first name may stand for, itself first. */
  firstRoots: readonly string[];
}

const DIGITS = /\d+/gu;

/** `robertsmith`, `smithrobert`, `rsmith`, `roberts`, `robert`, `smith`, with digits or not, or a typo of one. */
export const madeFromName = (local: string, person: NameParts): boolean => {
  const letters = local.replace(DIGITS, '');
  const { first, last } = person;
  if (letters === '' || first === '' || last === '') return false;
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
