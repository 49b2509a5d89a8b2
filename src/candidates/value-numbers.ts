/**
 * The values people share (names, company, job title, postcode, city) by number, per person: the
 * comparisons read two numbers where they would compare two strings. Equal values have equal
 * numbers, 0 is the empty value; a first name and a last name written alike share their number,
 * as a first name is compared with the other's last name when the two are swapped.
 *
 * A run numbers the values once, as it stages each person (staged-people.ts); people prepared one
 * by one are numbered here when they are compared.
 */
import type { PreparedName } from './prepare.js';

export interface ValueNumbers {
  firsts: Int32Array;
  lasts: Int32Array;
  /** Names numbered, the empty one included: every name number is below it. */
  nameCount: number;
  /** Per name number, its first character's code (-1: the empty name). */
  initials: Int32Array;
  /**
   * Whether a name's phonetic codes are the same wherever it occurs, so that its levels may be
   * remembered by number.
   */
  namesRemembered: boolean;
  companies: Int32Array;
  jobTitles: Int32Array;
  postcodes: Int32Array;
  cities: Int32Array;
}

/** Per name number, its first character's code (-1: the empty name). */
export const initialsOf = (names: readonly string[]): Int32Array => {
  const initials = new Int32Array(names.length);
  names.forEach((name, number) => (initials[number] = name === '' ? -1 : name.charCodeAt(0)));
  return initials;
};

const sameCodes = (x: readonly string[], y: readonly string[]): boolean =>
  x === y || (x.length === y.length && x.every((code, k) => code === y[k]));

/** Each person's value by number, in a numbering of its own. */
const numbersOf = (values: readonly string[]): Int32Array => {
  const numbers = new Map<string, number>([['', 0]]);
  const out = new Int32Array(values.length);
  values.forEach((value, i) => {
    let number = numbers.get(value);
    if (number === undefined) numbers.set(value, (number = numbers.size));
    out[i] = number;
  });
  return out;
};

/** The numbers of people's values, from the values. */
export const numberValues = (columns: {
  firstNames: readonly PreparedName[];
  lastNames: readonly PreparedName[];
  companies: readonly string[];
  jobTitles: readonly string[];
  postcodes: readonly string[];
  cities: readonly string[];
}): ValueNumbers => {
  const { firstNames, lastNames } = columns;
  const count = firstNames.length;
  const names: string[] = [''];
  const nameNumbers = new Map<string, number>([['', 0]]);
  const codesOfName: (readonly string[] | undefined)[] = [];
  let namesRemembered = true;
  const nameNumberOf = (name: PreparedName): number => {
    let number = nameNumbers.get(name.name);
    if (number === undefined) nameNumbers.set(name.name, (number = names.push(name.name) - 1));
    const known = codesOfName[number];
    if (known === undefined) codesOfName[number] = name.codes;
    else if (!sameCodes(known, name.codes)) namesRemembered = false;
    return number;
  };
  const firsts = new Int32Array(count);
  const lasts = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    firsts[i] = nameNumberOf(firstNames[i]!);
    lasts[i] = nameNumberOf(lastNames[i]!);
  }
  return {
    firsts,
    lasts,
    nameCount: names.length,
    initials: initialsOf(names),
    namesRemembered,
    companies: numbersOf(columns.companies),
    jobTitles: numbersOf(columns.jobTitles),
    postcodes: numbersOf(columns.postcodes),
    cities: numbersOf(columns.cities),
  };
};
