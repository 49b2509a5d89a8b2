/**
 * The people of a run between reading and matching, kept as numbers and characters rather than
 * as Prepared people or lists of values. Anything kept per person as an object (a Prepared
 * person, a list, a string) is allocated among the records being read and copied by the young
 * generation's collections before it settles in the old one, where every full collection marks
 * it again; a string sliced from the row it was read from keeps that row alive too. Kept here
 * instead is, per person, the number of each value the numberings share (names, company, job
 * title, birth date, postcode, city: staged-values.ts), in lists of 32-bit integers, and the
 * characters of its e-mails, phones and street in byte lists (text-list.ts). When matching
 * starts, the values are laid out as the matcher reads them (flat-people.ts), with the numbers,
 * so the matcher does not number them again.
 *
 * The lists give the people preparing each would: each value is made as prepare.ts makes it,
 * once per value as written, and local parts are matched against names (name-locals.ts) in the
 * same order.
 */
import { FlatPeople } from './flat-people.js';
import { IntList } from './int-list.js';
import {
  companyKey,
  parseBirthday,
  splitFullName,
  type BirthDate,
  type PrepareCache,
  type PreparedName,
} from './prepare.js';
import {
  appendEmail,
  appendLocalPart,
  appendPhoneDigits,
  NameNumbering,
  Numbering,
} from './staged-values.js';
import { fold, squash } from './text.js';
import { TextList } from './text-list.js';
import type { PersonFields } from './types.js';
import { initialsOf } from './value-numbers.js';

/** Each person's value from its number. */
const valuesOf = <T>(values: readonly T[], numbers: IntList): T[] => {
  const { data, length } = numbers;
  // Made at its length and filled, then set: pushing would copy it as it grows, a slot at a time.
  const out = new Array<T>(length).fill(values[0] as T);
  for (let i = 0; i < length; i++) out[i] = values[data[i]!] as T;
  return out;
};

const numbersOf = (list: IntList): Int32Array => list.data.slice(0, list.length);

export class StagedPeople {
  private names: NameNumbering;
  private companies = new Numbering('', companyKey);
  private jobTitles = new Numbering('', fold);
  private births = new Numbering<BirthDate | undefined>(undefined, parseBirthday);
  private postcodes = new Numbering('', squash);
  private cities = new Numbering('', fold);
  private firstNumbers = new IntList();
  private lastNumbers = new IntList();
  private companyNumbers = new IntList();
  private jobNumbers = new IntList();
  private birthNumbers = new IntList();
  private postcodeNumbers = new IntList();
  private cityNumbers = new IntList();
  private streets = new TextList();
  /** Every person's normalized e-mails, one after another; `emailEnds[i]`: where person i's end. */
  private emails = new TextList();
  private emailEnds = new IntList();
  private phones = new TextList();
  private phoneEnds = new IntList();

  constructor(private readonly cache: PrepareCache) {
    this.names = new NameNumbering(cache);
  }

  get size(): number {
    return this.firstNumbers.length;
  }

  /**
   * Stages a person; whether its first e-mail as written (the empty string when it has none) is
   * its first e-mail staged, as nearly always: else the caller keeps the one written.
   */
  add(person: PersonFields): boolean {
    const { names } = this;
    // As prepare.ts `namesOf`: the names given, or split from the full name when neither is.
    let first = names.first(person.firstName);
    let last = names.last(person.lastName);
    if (first === 0 && last === 0) {
      const split = splitFullName(person.fullName);
      first = names.first(split.first);
      last = names.last(split.last);
    }
    this.firstNumbers.push(first);
    this.lastNumbers.push(last);
    const { emails } = person;
    let firstAsWritten = !emails || emails.length === 0;
    if (emails)
      for (let k = 0; k < emails.length; k++) {
        const asWritten = appendEmail(emails[k]!, this.emails);
        if (k === 0) firstAsWritten = asWritten;
      }
    this.emailEnds.push(this.emails.size);
    if (person.phones) for (const phone of person.phones) appendPhoneDigits(phone, this.phones);
    this.phoneEnds.push(this.phones.size);
    this.companyNumbers.push(this.companies.numberOf(person.company));
    this.jobNumbers.push(this.jobTitles.numberOf(person.jobTitle));
    this.birthNumbers.push(this.births.numberOf(person.birthday));
    this.streets.push(fold(person.street));
    this.postcodeNumbers.push(this.postcodes.numberOf(person.postcode));
    this.cityNumbers.push(this.cities.numberOf(person.city));
    return firstAsWritten;
  }

  /** Person i's first e-mail staged, or the empty string. */
  firstEmail(i: number): string {
    const ends = this.emailEnds.data;
    const start = i === 0 ? 0 : ends[i - 1]!;
    return start < ends[i]! ? this.emails.at(start) : '';
  }

  /**
   * The people as the matcher reads them, in the order added, with their e-mails' local parts;
   * the staged lists are handed over and this is left empty.
   */
  finish(): FlatPeople {
    const { cache, names, emails } = this;
    const size = this.size;
    const emailStart = startsOf(this.emailEnds, size);
    const localStart = new Int32Array(size + 1);
    const localTexts = new TextList();
    for (let i = 0; i < size; i++) {
      for (let k = emailStart[i]!; k < emailStart[i + 1]!; k++) appendLocalPart(emails, k, localTexts);
      localStart[i + 1] = localTexts.size;
    }
    const locals = localTexts.texts();
    const localsFromName = new Uint8Array(size);
    const person = { first: '', last: '', firstRoots: [] as readonly string[] };
    const firstNumbers = this.firstNumbers.data;
    const lastNumbers = this.lastNumbers.data;
    for (let i = 0; i < size; i++) {
      const from = localStart[i]!;
      // As prepare.ts `allFromName`: in order, up to the first local part not made from the name.
      const firstName = names.firsts[firstNumbers[i]!]!;
      person.first = firstName.name;
      person.last = names.names[lastNumbers[i]!]!;
      person.firstRoots = firstName.roots;
      let fromName = 1;
      for (let k = from; k < localStart[i + 1]! && fromName === 1; k++)
        if (!cache.nameLocals.madeFromName(locals[k]!, person)) fromName = 0;
      localsFromName[i] = fromName;
    }
    const people = new FlatPeople({
      firstNames: valuesOf<PreparedName>(names.firsts, this.firstNumbers),
      lastNames: valuesOf<PreparedName>(names.lasts, this.lastNumbers),
      companies: valuesOf(this.companies.values, this.companyNumbers),
      jobTitles: valuesOf(this.jobTitles.values, this.jobNumbers),
      births: valuesOf(this.births.values, this.birthNumbers),
      streets: this.streets.texts(),
      postcodes: valuesOf(this.postcodes.values, this.postcodeNumbers),
      cities: valuesOf(this.cities.values, this.cityNumbers),
      emailTexts: emails,
      emailStart,
      locals,
      localStart,
      phoneTexts: this.phones,
      phoneStart: startsOf(this.phoneEnds, size),
      localsFromName,
      numbers: {
        firsts: numbersOf(this.firstNumbers),
        lasts: numbersOf(this.lastNumbers),
        nameCount: names.names.length,
        initials: initialsOf(names.names),
        // A name's phonetic codes are worked out from the name folded alone.
        namesRemembered: true,
        companies: numbersOf(this.companyNumbers),
        jobTitles: numbersOf(this.jobNumbers),
        postcodes: numbersOf(this.postcodeNumbers),
        cities: numbersOf(this.cityNumbers),
      },
    });
    this.clear();
    return people;
  }

  private clear(): void {
    this.names = new NameNumbering(this.cache);
    this.companies = new Numbering('', companyKey);
    this.jobTitles = new Numbering('', fold);
    this.births = new Numbering<BirthDate | undefined>(undefined, parseBirthday);
    this.postcodes = new Numbering('', squash);
    this.cities = new Numbering('', fold);
    this.firstNumbers = new IntList();
    this.lastNumbers = new IntList();
    this.companyNumbers = new IntList();
    this.jobNumbers = new IntList();
    this.birthNumbers = new IntList();
    this.postcodeNumbers = new IntList();
    this.cityNumbers = new IntList();
    this.streets = new TextList();
    this.emails = new TextList();
    this.emailEnds = new IntList();
    this.phones = new TextList();
    this.phoneEnds = new IntList();
  }
}

/** Where each of `size` people's values start, from where each ends: `size + 1` entries from 0. */
const startsOf = (ends: IntList, size: number): Int32Array => {
  const starts = new Int32Array(size + 1);
  starts.set(ends.data.subarray(0, size), 1);
  return starts;
};
