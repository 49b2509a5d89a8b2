/**
 * The fields of the people a run compares that repeat across people (first and last name,
 * company, job title, city, birth date), each person's as numbers side by side in one flat list,
 * and the levels of those fields read from it.
 *
 * Why: the other side of a compared pair is anyone in the run, and reading its fields from its
 * prepared person costs cache misses for the person object and what it points to, for every
 * pair. Here one person's numbers share a cache line; each distinct value is numbered once, so
 * equal numbers are equal values, and a value's text (and a name's phonetic codes) is read from
 * a table of distinct values only when two numbers differ. Every level is what comparing the text
 * gives, with the text compared in the same order and as often as before.
 */
import {
  birthdayLevel,
  companyLevel,
  exactLevel,
  firstNameLevel,
  lastNameLevel,
  NULL,
  textLevel,
} from './comparisons.js';
import type { Nicknames } from './nicknames.js';
import type { BirthDate, Prepared } from './prepare.js';

/** A person's numbers from i * WIDTH: one per column, padded so that two people fill a cache line. */
const FIRST = 0;
const LAST = 1;
const COMPANY = 2;
const JOB = 3;
const CITY = 4;
const BIRTH = 5;
/** 1 when every e-mail local part of the person is made from its own name. */
const LOCALS_FROM_NAME = 6;
const WIDTH = 8;

/** Value number 0: the empty value (and no birth date), which every level takes as absent. */
const EMPTY = 0;

/** The codes of a value not (yet) met as a name. */
const NO_CODES: readonly string[] = Object.freeze([]);

export class FixedFields {
  private readonly numbers: Int32Array;
  private readonly values: string[] = [''];
  private readonly valueNumbers = new Map<string, number>([['', EMPTY]]);
  /** By value number, the phonetic codes of a value met as a name. */
  private readonly codes: (readonly string[])[] = [NO_CODES];
  /** By value number, its first UTF-16 code unit; -1 for the empty value. */
  private readonly initials: number[] = [-1];
  private readonly births: (BirthDate | undefined)[] = [undefined];
  private readonly birthNumbers = new Map<BirthDate, number>();
  /** Rarely shared, so kept as each person's text rather than numbered. */
  private readonly streets: string[];
  private readonly postcodes: string[];

  constructor(prepared: readonly Prepared[]) {
    const numbers = (this.numbers = new Int32Array(prepared.length * WIDTH));
    this.streets = prepared.map((p) => p.street);
    this.postcodes = prepared.map((p) => p.postcode);
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i]!;
      const at = i * WIDTH;
      numbers[at + FIRST] = this.nameNumber(p.first, p.firstCodes);
      numbers[at + LAST] = this.nameNumber(p.last, p.lastCodes);
      numbers[at + COMPANY] = this.valueNumber(p.company);
      numbers[at + JOB] = this.valueNumber(p.jobTitle);
      numbers[at + CITY] = this.valueNumber(p.city);
      numbers[at + BIRTH] = this.birthNumber(p.birth);
      numbers[at + LOCALS_FROM_NAME] = p.localsFromName ? 1 : 0;
    }
  }

  firstName(i: number): number {
    return this.numbers[i * WIDTH + FIRST]!;
  }

  lastName(i: number): number {
    return this.numbers[i * WIDTH + LAST]!;
  }

  /** The first character of a name by its number (-1 for none): whether names may be swapped. */
  initial(name: number): number {
    return this.initials[name]!;
  }

  localsFromName(i: number): boolean {
    return this.numbers[i * WIDTH + LOCALS_FROM_NAME] === 1;
  }

  /** comparisons.ts firstNameLevel of the names numbered x and y. */
  firstNameLevel(x: number, y: number, nicknames: Nicknames): number {
    if (x === EMPTY || y === EMPTY) return NULL;
    if (x === y) return 5;
    return firstNameLevel(this.values[x]!, this.codes[x]!, this.values[y]!, this.codes[y]!, nicknames);
  }

  /** comparisons.ts lastNameLevel of the names numbered x and y. */
  lastNameLevel(x: number, y: number): number {
    if (x === EMPTY || y === EMPTY) return NULL;
    if (x === y) return 4;
    return lastNameLevel(this.values[x]!, this.codes[x]!, this.values[y]!, this.codes[y]!);
  }

  companyLevel(i: number, j: number): number {
    const x = this.numbers[i * WIDTH + COMPANY]!;
    const y = this.numbers[j * WIDTH + COMPANY]!;
    if (x === EMPTY || y === EMPTY) return NULL;
    return x === y ? 2 : companyLevel(this.values[x]!, this.values[y]!);
  }

  jobLevel(i: number, j: number): number {
    const x = this.numbers[i * WIDTH + JOB]!;
    const y = this.numbers[j * WIDTH + JOB]!;
    return x === EMPTY || y === EMPTY ? NULL : x === y ? 1 : 0;
  }

  cityLevel(i: number, j: number): number {
    const x = this.numbers[i * WIDTH + CITY]!;
    const y = this.numbers[j * WIDTH + CITY]!;
    if (x === EMPTY || y === EMPTY) return NULL;
    return x === y ? 2 : textLevel(this.values[x]!, this.values[y]!);
  }

  birthdayLevel(i: number, j: number): number {
    const x = this.numbers[i * WIDTH + BIRTH]!;
    const y = this.numbers[j * WIDTH + BIRTH]!;
    return x === EMPTY || y === EMPTY ? NULL : birthdayLevel(this.births[x], this.births[y]);
  }

  streetLevel(i: number, j: number): number {
    return textLevel(this.streets[i]!, this.streets[j]!, 0.88);
  }

  postcodeLevel(i: number, j: number): number {
    return exactLevel(this.postcodes[i]!, this.postcodes[j]!);
  }

  private valueNumber(value: string): number {
    let number = this.valueNumbers.get(value);
    if (number === undefined) {
      number = this.values.push(value) - 1;
      this.valueNumbers.set(value, number);
      this.initials.push(value.charCodeAt(0));
      this.codes.push(NO_CODES);
    }
    return number;
  }

  /** A name's codes depend on its text alone: the first person's with that name stand for all. */
  private nameNumber(name: string, codes: readonly string[]): number {
    const number = this.valueNumber(name);
    if (this.codes[number] === NO_CODES) this.codes[number] = codes;
    return number;
  }

  /** Numbered by object: a prepared birth date is shared by the people with that date as written. */
  private birthNumber(birth: BirthDate | undefined): number {
    if (!birth) return EMPTY;
    let number = this.birthNumbers.get(birth);
    if (number === undefined) {
      number = this.births.push(birth) - 1;
      this.birthNumbers.set(birth, number);
    }
    return number;
  }
}
