/**
 * The people of a run between reading and matching, kept value by value in lists rather than as
 * Prepared people. A person prepared as it is read is half a dozen objects (itself, its lists,
 * the local parts of its e-mails and their digits), each allocated among the records being read
 * and dying young around it, so each is copied by the young generation's collections before it
 * settles in the old one. Kept here instead is, per person, a reference to each value the caches
 * share (names, company, job title, birth date, city) and its e-mails and phones in flat lists;
 * the Prepared people are made when matching starts, all at once, where what is made is all
 * kept and V8 allocates it in the old generation straight away.
 *
 * Preparing later gives the same people: the caches give each value what they gave when it was
 * read, and local parts are matched against names (name-locals.ts) in the same order as before.
 */
import { IntList } from './int-list.js';
import {
  namesOf,
  NONE,
  normalEmail,
  phoneDigits,
  preparedOf,
  singleValuesOf,
  type BirthDate,
  type PrepareCache,
  type Prepared,
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

/** The values from `start` to `end` as a list of exactly that length (prepare.ts `mapped`), or NONE. */
const listOf = (values: readonly string[], start: number, end: number): readonly string[] => {
  if (end === start) return NONE;
  if (end - start === 1) return [values[start]!];
  if (end - start === 2) return [values[start]!, values[start + 1]!];
  return values.slice(start, end);
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

  /** Every person prepared, in the order added; the staged values are let go. */
  prepareAll(): Prepared[] {
    const { cache, emails, phones } = this;
    const emailEnds = this.emailEnds.data;
    const phoneEnds = this.phoneEnds.data;
    const prepared: Prepared[] = [];
    for (let i = 0; i < this.size; i++) {
      prepared.push(
        preparedOf(
          {
            firstName: this.firstNames[i]!,
            lastName: this.lastNames[i]!,
            emails: listOf(emails, i === 0 ? 0 : emailEnds[i - 1]!, emailEnds[i]!),
            phones: listOf(phones, i === 0 ? 0 : phoneEnds[i - 1]!, phoneEnds[i]!),
            company: this.companies[i]!,
            jobTitle: this.jobTitles[i]!,
            birth: this.births[i],
            street: this.streets[i]!,
            postcode: this.postcodes[i]!,
            city: this.cities[i]!,
          },
          cache,
        ),
      );
    }
    this.clear();
    return prepared;
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
