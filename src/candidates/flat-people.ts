/**
 * The people the matcher reads, field by field in lists indexed by person, rather than one
 * Prepared object per person. Values people share (names, company, job title, birth date, city)
 * are references into the caches' tables, and each person's e-mails, local parts and phones sit
 * in flat lists with where each person's start. A run of a few hundred thousand people then
 * makes a handful of lists when matching starts instead of half a dozen objects a person, which
 * the collector would have to walk and copy.
 *
 * Person i's e-mails are `emails[emailStart[i]]` up to `emailStart[i + 1]`; the same for local
 * parts and phones. E-mails and phones are read as characters in place (text-list.ts): the
 * matcher hashes and compares them there, with no string made of each.
 */
import { FIELD } from './comparisons.js';
import { TextList } from './text-list.js';
import { digitsOf, type BirthDate, type Prepared, type PreparedName } from './prepare.js';
import { numberValues, type ValueNumbers } from './value-numbers.js';

export interface PeopleColumns {
  firstNames: readonly PreparedName[];
  lastNames: readonly PreparedName[];
  companies: readonly string[];
  jobTitles: readonly string[];
  births: readonly (BirthDate | undefined)[];
  streets: readonly string[];
  postcodes: readonly string[];
  cities: readonly string[];
  emailTexts: TextList;
  emailStart: Int32Array;
  /** E-mail local parts (prepare.ts `localPart`), the empty left out; their digits are read in place. */
  locals: readonly string[];
  localStart: Int32Array;
  phoneTexts: TextList;
  phoneStart: Int32Array;
  /** 1 when every local part of the person is made from its name (name-locals.ts). */
  localsFromName: Uint8Array;
  /** The shared values by number, when the values were numbered as they were staged. */
  numbers?: ValueNumbers | undefined;
}

/** The values reasons show of a person (scoring.ts `reasonsOf`). */
export interface ShownValues {
  first: string;
  last: string;
  company: string;
  city: string;
}

export class FlatPeople {
  readonly firstNames: readonly PreparedName[];
  readonly lastNames: readonly PreparedName[];
  readonly companies: readonly string[];
  readonly jobTitles: readonly string[];
  readonly births: readonly (BirthDate | undefined)[];
  readonly streets: readonly string[];
  readonly postcodes: readonly string[];
  readonly cities: readonly string[];
  readonly emailTexts: TextList;
  readonly emailStart: Int32Array;
  readonly locals: readonly string[];
  readonly localStart: Int32Array;
  readonly phoneTexts: TextList;
  readonly phoneStart: Int32Array;
  readonly localsFromName: Uint8Array;
  private numbered: ValueNumbers | undefined;
  private emailStrings: readonly string[] | undefined;
  private phoneStrings: readonly string[] | undefined;

  constructor(columns: PeopleColumns) {
    this.firstNames = columns.firstNames;
    this.lastNames = columns.lastNames;
    this.companies = columns.companies;
    this.jobTitles = columns.jobTitles;
    this.births = columns.births;
    this.streets = columns.streets;
    this.postcodes = columns.postcodes;
    this.cities = columns.cities;
    this.emailTexts = columns.emailTexts;
    this.emailStart = columns.emailStart;
    this.locals = columns.locals;
    this.localStart = columns.localStart;
    this.phoneTexts = columns.phoneTexts;
    this.phoneStart = columns.phoneStart;
    this.localsFromName = columns.localsFromName;
    this.numbered = columns.numbers;
  }

  /** Every e-mail as a string (made when first asked for: the matcher reads them in place). */
  get emails(): readonly string[] {
    return (this.emailStrings ??= this.emailTexts.texts());
  }

  get phones(): readonly string[] {
    return (this.phoneStrings ??= this.phoneTexts.texts());
  }

  /** The values people share, by number (value-numbers.ts): numbered here unless staging did. */
  valueNumbers(): ValueNumbers {
    return (this.numbered ??= numberValues(this));
  }

  /** A few people prepared one by one (a record and target contacts, tests), laid out flat. */
  static of(prepared: readonly Prepared[]): FlatPeople {
    const emails: string[] = [];
    const locals: string[] = [];
    const phones: string[] = [];
    const emailStart = new Int32Array(prepared.length + 1);
    const localStart = new Int32Array(prepared.length + 1);
    const phoneStart = new Int32Array(prepared.length + 1);
    prepared.forEach((p, i) => {
      emails.push(...p.emails);
      locals.push(...p.locals);
      phones.push(...p.phones);
      emailStart[i + 1] = emails.length;
      localStart[i + 1] = locals.length;
      phoneStart[i + 1] = phones.length;
    });
    return new FlatPeople({
      firstNames: prepared.map((p) => ({ name: p.first, codes: [...p.firstCodes], roots: p.firstRoots })),
      lastNames: prepared.map((p) => ({ name: p.last, codes: [...p.lastCodes], roots: [] })),
      companies: prepared.map((p) => p.company),
      jobTitles: prepared.map((p) => p.jobTitle),
      births: prepared.map((p) => p.birth),
      streets: prepared.map((p) => p.street),
      postcodes: prepared.map((p) => p.postcode),
      cities: prepared.map((p) => p.city),
      emailTexts: TextList.of(emails),
      emailStart,
      locals,
      localStart,
      phoneTexts: TextList.of(phones),
      phoneStart,
      localsFromName: Uint8Array.from(prepared, (p) => (p.localsFromName ? 1 : 0)),
    });
  }

  get size(): number {
    return this.firstNames.length;
  }

  /** Person i's first local part, or the empty string. */
  firstLocal(i: number): string {
    const start = this.localStart[i]!;
    return start < this.localStart[i + 1]! ? this.locals[start]! : '';
  }

  shownValues(i: number): ShownValues {
    return {
      first: this.firstNames[i]!.name,
      last: this.lastNames[i]!.name,
      company: this.companies[i]!,
      city: this.cities[i]!,
    };
  }

  /**
   * The value of a field weighed by how rare it is (comparisons.ts `frequencyOf`) of each person,
   * by person number.
   */
  frequencyValues(field: number): (i: number) => string {
    switch (field) {
      case FIELD.first:
        return (i) => this.firstNames[i]!.name;
      case FIELD.last:
        return (i) => this.lastNames[i]!.name;
      case FIELD.postcode:
        return (i) => this.postcodes[i]!;
      case FIELD.city:
        return (i) => this.cities[i]!;
      default:
        throw new Error(`field ${field} is not weighed by frequency`);
    }
  }

  /** Person i as prepare() makes it: what the lists hold of one person, for tests and a check. */
  preparedAt(i: number): Prepared {
    const first = this.firstNames[i]!;
    const last = this.lastNames[i]!;
    const locals = this.locals.slice(this.localStart[i]!, this.localStart[i + 1]!);
    return {
      first: first.name,
      last: last.name,
      firstCodes: first.codes,
      lastCodes: last.codes,
      firstRoots: first.roots,
      locals,
      localsFromName: this.localsFromName[i] === 1,
      localDigits: locals.map(digitsOf),
      emails: this.emails.slice(this.emailStart[i]!, this.emailStart[i + 1]!),
      phones: this.phones.slice(this.phoneStart[i]!, this.phoneStart[i + 1]!),
      company: this.companies[i]!,
      jobTitle: this.jobTitles[i]!,
      birth: this.births[i],
      street: this.streets[i]!,
      postcode: this.postcodes[i]!,
      city: this.cities[i]!,
    };
  }
}
