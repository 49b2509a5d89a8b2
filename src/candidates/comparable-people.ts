/**
 * The people a run compares, with a hash of each of their e-mails, local parts and phones kept
 * side by side in one flat list, and the comparisons of those fields read from it.
 *
 * Why: the other side of a compared pair is anyone in the run, and following its lists of
 * strings across the heap costs a cache miss per list and per string, for every pair; e-mails
 * and phones are nearly unique per person, so nothing of them stays cached. Their hashes are a
 * few neighbouring integers instead: values whose hashes differ differ, and the few whose hashes
 * agree are compared as text, so every level is what comparing the text gives.
 */
import {
  companyLevel,
  firstNameLevel,
  lastNameLevel,
  NULL,
  STREET_SIMILAR,
  textLevel,
  TYPO,
} from './comparisons.js';
import { countingOrder } from './counting-order.js';
import { LevelMemo } from './level-memo.js';
import type { Nicknames } from './nicknames.js';
import type { FlatPeople } from './flat-people.js';
import { similarOnce } from './similarity.js';
import { hashOf, hashOfDigits, sameDigits } from './text.js';

/**
 * A person's entries from start[i]: numbers of its values, then its counts of e-mails, local
 * parts and phones, then their hashes. A value's number is the same for equal values (0: empty).
 */
const FIRST = 0;
const LAST = 1;
const COMPANY = 2;
const JOB = 3;
const POSTCODE = 4;
const CITY = 5;
/** 1 when the person has a street. */
const STREET = 6;
/** 1 when every local part is made from the person's name. */
const LOCALS_FROM_NAME = 7;
/** 0: no birth date; 1: day and month; 2: with the year. Then its parts. */
const BIRTH = 8;
const YEAR = 9;
const MONTH = 10;
const DAY = 11;
const EMAILS = 12;
const LOCALS = 13;
const PHONES = 14;
/** Where a person's hashes start from its start. */
const HEADER = 15;

/** The last seven characters of a phone number of seven or more: `x.slice(-7) === y.slice(-7)`. */
const LAST_SEVEN = 7;

export class ComparablePeople {
  /** Where each person's entries start in `entries`. */
  private readonly start: Int32Array;
  private readonly entries: Int32Array;
  /** Per name number, its first character's code (-1: the empty name). */
  private readonly initials: Int32Array;
  /** Whether a name's phonetic codes are the same wherever it occurs: its levels may be remembered. */
  private readonly namesRemembered: boolean;
  private firstLevels = new LevelMemo();
  private lastLevels = new LevelMemo();
  private readonly companyLevels = new LevelMemo();
  private readonly cityLevels = new LevelMemo();
  /** The nicknames the first names' levels remembered were worked out with. */
  private nicknames: Nicknames | undefined;

  constructor(readonly people: FlatPeople) {
    const count = people.size;
    const { emailStart, emailTexts, locals, localStart, phoneTexts, phoneStart } = people;
    const numbers = people.valueNumbers();
    const { firsts, lasts } = numbers;
    this.namesRemembered = numbers.namesRemembered;
    this.initials = numbers.initials;

    // Most compared pairs share a name: laid out in order of name, their entries sit side by side
    // and stay cached from one pair to the next.
    this.start = new Int32Array(count + 1);
    let size = 0;
    const order = byName(firsts, lasts, numbers.nameCount);
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      this.start[i] = size;
      size +=
        HEADER +
        (emailStart[i + 1]! - emailStart[i]!) +
        2 * (localStart[i + 1]! - localStart[i]!) +
        2 * (phoneStart[i + 1]! - phoneStart[i]!);
    }
    this.start[count] = size;
    const entries = (this.entries = new Int32Array(size));
    for (let i = 0; i < count; i++) {
      let at = this.start[i]!;
      entries[at + FIRST] = firsts[i]!;
      entries[at + LAST] = lasts[i]!;
      entries[at + COMPANY] = numbers.companies[i]!;
      entries[at + JOB] = numbers.jobTitles[i]!;
      entries[at + POSTCODE] = numbers.postcodes[i]!;
      entries[at + CITY] = numbers.cities[i]!;
      entries[at + STREET] = people.streets[i] === '' ? 0 : 1;
      entries[at + LOCALS_FROM_NAME] = people.localsFromName[i]!;
      const birth = people.births[i];
      entries[at + BIRTH] = !birth ? 0 : birth.year === undefined ? 1 : 2;
      entries[at + YEAR] = birth?.year ?? 0;
      entries[at + MONTH] = birth?.month ?? 0;
      entries[at + DAY] = birth?.day ?? 0;
      entries[at + EMAILS] = emailStart[i + 1]! - emailStart[i]!;
      entries[at + LOCALS] = localStart[i + 1]! - localStart[i]!;
      entries[at + PHONES] = phoneStart[i + 1]! - phoneStart[i]!;
      at += HEADER;
      for (let k = emailStart[i]!; k < emailStart[i + 1]!; k++) entries[at++] = emailTexts.hashOf(k);
      for (let k = localStart[i]!; k < localStart[i + 1]!; k++) entries[at++] = hashOf(locals[k]!);
      for (let k = localStart[i]!; k < localStart[i + 1]!; k++) entries[at++] = hashOfDigits(locals[k]!);
      for (let k = phoneStart[i]!; k < phoneStart[i + 1]!; k++) entries[at++] = phoneTexts.hashOf(k);
      for (let k = phoneStart[i]!; k < phoneStart[i + 1]!; k++) {
        const length = phoneTexts.lengthOf(k);
        entries[at++] = length >= LAST_SEVEN ? phoneTexts.hashOf(k, length - LAST_SEVEN) : 0;
      }
    }
  }

  get size(): number {
    return this.people.size;
  }

  /** Where person i's entries start: what the methods below take. */
  at(i: number): number {
    return this.start[i]!;
  }

  /** The number of the first (or last) name of the person whose entries start at x. */
  first(x: number): number {
    return this.entries[x + FIRST]!;
  }

  last(x: number): number {
    return this.entries[x + LAST]!;
  }

  /** Whether `a.first[0] === b.last[0] || a.last[0] === b.first[0]` (empty names agreeing too). */
  initialsCross(x: number, y: number): boolean {
    const { entries, initials } = this;
    return (
      initials[entries[x + FIRST]!] === initials[entries[y + LAST]!] ||
      initials[entries[x + LAST]!] === initials[entries[y + FIRST]!]
    );
  }

  /**
   * firstNameLevel of i's first name (number `xName`) and j's name numbered `yName`: its first
   * name, or its last when `swapped`.
   */
  firstNameLevel(
    i: number,
    j: number,
    xName: number,
    yName: number,
    swapped: boolean,
    nicknames: Nicknames,
  ): number {
    if (xName === 0 || yName === 0) return NULL;
    if (xName === yName) return 5;
    if (nicknames !== this.nicknames) {
      this.firstLevels = new LevelMemo();
      this.nicknames = nicknames;
    }
    const remembered = this.namesRemembered ? this.firstLevels.get(xName, yName) : undefined;
    if (remembered !== undefined) return remembered;
    const { firstNames, lastNames } = this.people;
    const level = firstNameLevel(firstNames[i]!, (swapped ? lastNames : firstNames)[j]!, nicknames);
    if (this.namesRemembered) this.firstLevels.set(xName, yName, level);
    return level;
  }

  /** lastNameLevel of i's last name and j's name numbered `yName` (its first when `swapped`). */
  lastNameLevel(i: number, j: number, xName: number, yName: number, swapped: boolean): number {
    if (xName === 0 || yName === 0) return NULL;
    if (xName === yName) return 4;
    const remembered = this.namesRemembered ? this.lastLevels.get(xName, yName) : undefined;
    if (remembered !== undefined) return remembered;
    const { firstNames, lastNames } = this.people;
    const level = lastNameLevel(lastNames[i]!, (swapped ? firstNames : lastNames)[j]!);
    if (this.namesRemembered) this.lastLevels.set(xName, yName, level);
    return level;
  }

  companyLevel(i: number, j: number, x: number, y: number): number {
    return this.rememberedLevel(
      i,
      j,
      x + COMPANY,
      y + COMPANY,
      this.companyLevels,
      this.people.companies,
      companyLevel,
    );
  }

  jobLevel(x: number, y: number): number {
    return exactNumberLevel(this.entries[x + JOB]!, this.entries[y + JOB]!);
  }

  postcodeLevel(x: number, y: number): number {
    return exactNumberLevel(this.entries[x + POSTCODE]!, this.entries[y + POSTCODE]!);
  }

  cityLevel(i: number, j: number, x: number, y: number): number {
    return this.rememberedLevel(i, j, x + CITY, y + CITY, this.cityLevels, this.people.cities, cityLevel);
  }

  /**
   * The level of a field numbered in `entries` (0: none): equal numbers are equal values, and two
   * different values are measured once per pair of numbers while the similarity table keeps them.
   */
  private rememberedLevel(
    i: number,
    j: number,
    xAt: number,
    yAt: number,
    memo: LevelMemo,
    values: readonly string[],
    measure: (x: string, y: string) => number,
  ): number {
    const xValue = this.entries[xAt]!;
    const yValue = this.entries[yAt]!;
    if (xValue === 0 || yValue === 0) return NULL;
    if (xValue === yValue) return 2;
    const remembered = memo.get(xValue, yValue);
    if (remembered !== undefined) return remembered;
    const level = measure(values[i]!, values[j]!);
    memo.set(xValue, yValue, level);
    return level;
  }

  /** Streets are nearly one per person: compared as text when both have one. */
  streetLevel(i: number, j: number, x: number, y: number): number {
    if (this.entries[x + STREET] === 0 || this.entries[y + STREET] === 0) return NULL;
    return textLevel(this.people.streets[i]!, this.people.streets[j]!, STREET_SIMILAR);
  }

  /** birthdayLevel of the two birth dates, from their parts. */
  birthdayLevel(x: number, y: number): number {
    const { entries } = this;
    const xBirth = entries[x + BIRTH]!;
    const yBirth = entries[y + BIRTH]!;
    if (xBirth === 0 || yBirth === 0) return NULL;
    const sameMonth = entries[x + MONTH] === entries[y + MONTH];
    const sameDayOfMonth = entries[x + DAY] === entries[y + DAY];
    const sameDay = sameMonth && sameDayOfMonth;
    if (xBirth === 1 || yBirth === 1) return sameDay ? 2 : 0;
    const sameYear = entries[x + YEAR] === entries[y + YEAR];
    if (sameYear && sameDay) return 4;
    const agreeing = Number(sameYear) + Number(sameMonth) + Number(sameDayOfMonth);
    if (agreeing === 2) return 3;
    // Day and month written the other way round (US and European order).
    if (sameYear && entries[x + MONTH] === entries[y + DAY] && entries[x + DAY] === entries[y + MONTH])
      return 3;
    return sameYear ? 1 : 0;
  }

  localsFromName(x: number): boolean {
    return this.entries[x + LOCALS_FROM_NAME] === 1;
  }

  /**
   * The best level over every pair of e-mails. Local parts with other digits (`jsmith84`,
   * `jsmith33`) are two people's more often than a typo.
   */
  emailLevel(i: number, j: number, x: number, y: number): number {
    const { entries } = this;
    const xEmails = entries[x + EMAILS]!;
    const yEmails = entries[y + EMAILS]!;
    if (xEmails === 0 || yEmails === 0) return NULL;
    if (this.shareAddress(i, j, x, y)) return 3;
    const xFrom = x + HEADER;
    const yFrom = y + HEADER;
    const xLocals = entries[x + LOCALS]!;
    const yLocals = entries[y + LOCALS]!;
    const xLocal = xFrom + xEmails;
    const yLocal = yFrom + yEmails;
    const { locals, localStart } = this.people;
    const xText = localStart[i]!;
    const yText = localStart[j]!;
    let best = 0;
    for (let k = 0; k < xLocals; k++) {
      for (let l = 0; l < yLocals; l++) {
        if (entries[xLocal + k] === entries[yLocal + l] && locals[xText + k] === locals[yText + l]) return 2;
        if (best < 1 && entries[xLocal + xLocals + k] === entries[yLocal + yLocals + l]) {
          const local = locals[xText + k]!;
          if (
            sameDigits(local, locals[yText + l]!) &&
            local.length >= 4 &&
            similarOnce(local, locals[yText + l]!, TYPO)
          )
            best = 1;
        }
      }
    }
    return best;
  }

  /**
   * The level emailLevel gives when only the same address counts (both sides' local parts are
   * made from their names): 3 for the same address, NULL otherwise, with no local part compared.
   */
  sameAddressLevel(i: number, j: number, x: number, y: number): number {
    return this.shareAddress(i, j, x, y) ? 3 : NULL;
  }

  /** Whether the two have an e-mail address in common. */
  private shareAddress(i: number, j: number, x: number, y: number): boolean {
    const { entries } = this;
    const xEmails = entries[x + EMAILS]!;
    const yEmails = entries[y + EMAILS]!;
    const xFrom = x + HEADER;
    const yFrom = y + HEADER;
    const { emailTexts, emailStart } = this.people;
    const xText = emailStart[i]!;
    const yText = emailStart[j]!;
    for (let k = 0; k < xEmails; k++)
      for (let l = 0; l < yEmails; l++)
        if (entries[xFrom + k] === entries[yFrom + l] && emailTexts.same(xText + k, yText + l)) return true;
    return false;
  }

  /** The same number, or the same last seven digits of numbers of seven digits or more. */
  phoneLevel(i: number, j: number, x: number, y: number): number {
    const { entries } = this;
    const xPhones = entries[x + PHONES]!;
    const yPhones = entries[y + PHONES]!;
    if (xPhones === 0 || yPhones === 0) return NULL;
    const xPhone = x + HEADER + entries[x + EMAILS]! + 2 * entries[x + LOCALS]!;
    const yPhone = y + HEADER + entries[y + EMAILS]! + 2 * entries[y + LOCALS]!;
    const { phoneTexts, phoneStart } = this.people;
    const xText = phoneStart[i]!;
    const yText = phoneStart[j]!;
    let best = 0;
    for (let k = 0; k < xPhones; k++) {
      for (let l = 0; l < yPhones; l++) {
        if (entries[xPhone + k] === entries[yPhone + l] && phoneTexts.same(xText + k, yText + l)) return 2;
        if (
          best === 0 &&
          entries[xPhone + xPhones + k] === entries[yPhone + yPhones + l] &&
          phoneTexts.sameEnd(xText + k, yText + l, LAST_SEVEN)
        )
          best = 1;
      }
    }
    return best;
  }
}

/** People in order of last name number, then first name number, then person (counted, not compared). */
const byName = (firsts: Int32Array, lasts: Int32Array, names: number): Int32Array => {
  const people = new Int32Array(firsts.length);
  for (let i = 0; i < people.length; i++) people[i] = i;
  return countingOrder(countingOrder(people, firsts, names), lasts, names);
};

const cityLevel = (x: string, y: string): number => textLevel(x, y);

/** exactLevel of two values by number. */
const exactNumberLevel = (x: number, y: number): number => (x === 0 || y === 0 ? NULL : x === y ? 1 : 0);
