/**
 * The people of a run between reading and matching, kept value by value in lists rather than as
 * Prepared people. A person prepared as it is read is half a dozen objects (itself, its lists,
 * the local parts of its e-mails and their digits), each allocated among the records being read
 * and dying young around it, so each is copied by the young generation's collections before it
 * settles in the old one. Kept here instead is, per person, a reference to each value the caches
 * share (names, company, job title, birth date, city) and its e-mails and phones in flat lists;
 * when matching starts, the local parts are added to them and the lists are what the matcher
 * reads (flat-people.ts): no object is made per person.
 *
 * The lists give the people preparing each would: the caches give each value what they gave when
 * it was read, and local parts are matched against names (name-locals.ts) in the same order.
 */
import { IntList } from './int-list.js';
import { FlatPeople } from './flat-people.js';
import {
  localPart,
  namesOf,
  normalEmail,
  phoneDigits,
  singleValuesOf,
  type BirthDate,
  type PrepareCache,
  type PreparedName,
} from './prepare.js';
import type { PersonFields } from './types.js';

/** Values each mapped, the empty ones left out, onto the end of a flat list; ended in `ends`. */
const pushMapped = (
  values: readonly string[] | undefined,
  map: (value: string) => string,
  into: string[],
  ends: IntList,
): void => {
  if (values)
    for (const value of values) {
      const mappedValue = map(value);
      if (mappedValue !== '') into.push(mappedValue);
    }
  ends.push(into.length);
};

export class StagedPeople {
  private firstNames: PreparedName[] = [];
  private lastNames: PreparedName[] = [];
  private companies: string[] = [];
  private jobTitles: string[] = [];
  private births: (BirthDate | undefined)[] = [];
  private streets: string[] = [];
  private postcodes: string[] = [];
  private cities: string[] = [];
  /** Every person's normalized e-mails, one after another; `emailEnds[i]`: where person i's end. */
  private emails: string[] = [];
  private emailEnds = new IntList();
  private phones: string[] = [];
  private phoneEnds = new IntList();

  constructor(private readonly cache: PrepareCache) {}

  get size(): number {
    return this.firstNames.length;
  }

  add(person: PersonFields): void {
    const { cache } = this;
    const { firstName, lastName } = namesOf(person, cache);
    this.firstNames.push(firstName);
    this.lastNames.push(lastName);
    pushMapped(person.emails, normalEmail, this.emails, this.emailEnds);
    pushMapped(person.phones, phoneDigits, this.phones, this.phoneEnds);
    const single = singleValuesOf(person, cache);
    this.companies.push(single.company);
    this.jobTitles.push(single.jobTitle);
    this.births.push(single.birth);
    this.streets.push(single.street);
    this.postcodes.push(single.postcode);
    this.cities.push(single.city);
  }

  /**
   * The people as the matcher reads them, in the order added, with their e-mails' local parts;
   * the staged lists are handed over and this is left empty.
   */
  finish(): FlatPeople {
    const { cache, emails } = this;
    const size = this.size;
    const emailStart = startsOf(this.emailEnds, size);
    const localStart = new Int32Array(size + 1);
    const locals: string[] = [];
    const localsFromName = new Uint8Array(size);
    const names = { first: '', last: '', firstRoots: [] as readonly string[] };
    for (let i = 0; i < size; i++) {
      const from = locals.length;
      for (let k = emailStart[i]!; k < emailStart[i + 1]!; k++) {
        const local = localPart(emails[k]!);
        if (local === '') continue;
        locals.push(local);
      }
      localStart[i + 1] = locals.length;
      // As prepare.ts `allFromName`: in order, up to the first local part not made from the name.
      names.first = this.firstNames[i]!.name;
      names.last = this.lastNames[i]!.name;
      names.firstRoots = this.firstNames[i]!.roots;
      let fromName = 1;
      for (let k = from; k < locals.length && fromName === 1; k++)
        if (!cache.nameLocals.madeFromName(locals[k]!, names)) fromName = 0;
      localsFromName[i] = fromName;
    }
    const people = new FlatPeople({
      firstNames: this.firstNames,
      lastNames: this.lastNames,
      companies: this.companies,
      jobTitles: this.jobTitles,
      births: this.births,
      streets: this.streets,
      postcodes: this.postcodes,
      cities: this.cities,
      emails,
      emailStart,
      locals,
      localStart,
      phones: this.phones,
      phoneStart: startsOf(this.phoneEnds, size),
      localsFromName,
    });
    this.clear();
    return people;
  }

  private clear(): void {
    this.firstNames = [];
    this.lastNames = [];
    this.companies = [];
    this.jobTitles = [];
    this.births = [];
    this.streets = [];
    this.postcodes = [];
    this.cities = [];
    this.emails = [];
    this.emailEnds = new IntList();
    this.phones = [];
    this.phoneEnds = new IntList();
  }
}

/** Where each of `size` people's values start, from where each ends: `size + 1` entries from 0. */
const startsOf = (ends: IntList, size: number): Int32Array => {
  const starts = new Int32Array(size + 1);
  starts.set(ends.data.subarray(0, size), 1);
  return starts;
};
