/**
 * A person as the comparisons read it: every value folded once, phonetic codes and nickname
 * roots computed once, so comparing a pair does no text work it could have done per person.
 */
import { doubleMetaphone } from 'double-metaphone';
import { NameLocals } from './name-locals.js';
import type { Nicknames } from './nicknames.js';
import { fold, squash, words } from './text.js';
import type { PersonFields } from './types.js';

export interface BirthDate {
  year?: number;
  month: number;
  day: number;
}

export interface Prepared {
  first: string;
  last: string;
  /** Double metaphone codes (primary, alternate) of the first and last name. */
  firstCodes: readonly string[];
  lastCodes: readonly string[];
  /** The formal names the first name may stand for, itself first. */
  firstRoots: readonly string[];
  /** E-mail local parts, folded without separators or `+tag`. */
  locals: readonly string[];
  /** Whether every local part is one made from the person's own name (name-locals.ts). */
  localsFromName: boolean;
  /** The digits of each local part (`bsmith84` -> `84`), in the same order. */
  localDigits: readonly string[];
  emails: readonly string[];
  phones: readonly string[];
  company: string;
  jobTitle: string;
  birth?: BirthDate;
  street: string;
  postcode: string;
  city: string;
}

/** Legal-form words that say nothing about which company it is. */
const LEGAL_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'llc',
  'llp',
  'lp',
  'ltd',
  'limited',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'oy',
  'ab',
  'as',
  'pty',
  'pte',
  'kk',
  'the',
  'group',
  'holdings',
]);

/** `Acme, Inc.` and `ACME Corporation` -> `acme`. */
export const companyKey = (value: string | null | undefined): string => {
  const kept = words(fold(value)).filter((w) => !LEGAL_SUFFIXES.has(w));
  return kept.join(' ');
};

/** `Bob.Smith+news@x` -> `bobsmith`; digits kept (`bsmith84`). */
export const localPart = (email: string): string => {
  const at = email.lastIndexOf('@');
  let end = at < 0 ? email.length : at;
  // The first `+` before the `@` ends the local part; one after it is the domain's.
  const plus = email.indexOf('+');
  if (plus >= 0 && plus < end) end = plus;
  return squash(end === email.length ? email : email.slice(0, end));
};

const BIRTHDAY = /^(\d{4}|--)-?(\d{2})-?(\d{2})$/u;

export const parseBirthday = (value: string | null | undefined): BirthDate | undefined => {
  const match = value ? BIRTHDAY.exec(value.trim()) : null;
  if (!match) return undefined;
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return match[1] === '--' ? { month, day } : { year: Number(match[1]), month, day };
};

/** First and last name from a full name: `Smith, Bob` or `Bob J. Smith`. */
export const splitFullName = (full: string | null | undefined): { first: string; last: string } => {
  if (!full) return { first: '', last: '' };
  const comma = full.indexOf(',');
  if (comma > 0)
    return {
      first: squash(
        full
          .slice(comma + 1)
          .trim()
          .split(/\s+/u)[0],
      ),
      last: squash(full.slice(0, comma)),
    };
  const parts = words(fold(full));
  if (parts.length === 1) return { first: '', last: parts[0]! };
  return { first: parts[0] ?? '', last: parts.at(-1) ?? '' };
};

const codesOf = (name: string): string[] => {
  if (name === '') return [];
  const [primary, alternate] = doubleMetaphone(name);
  const codes = primary ? [primary] : [];
  if (alternate && alternate !== primary) codes.push(alternate);
  return codes;
};

/** What a first or last name gives, worked out once per distinct name as written. */
export interface PreparedName {
  name: string;
  codes: string[];
  roots: readonly string[];
}

/**
 * Per distinct value, what preparing it gave: names, companies and cities repeat across people,
 * and folding, phonetic codes and nickname roots are the bulk of preparing a person.
 */
export class PrepareCache {
  /** By the name as written (a look-up makes no key string), then by the name folded. */
  private readonly firstNames = new Map<string, PreparedName>();
  private readonly lastNames = new Map<string, PreparedName>();
  private readonly foldedFirstNames = new Map<string, PreparedName>();
  private readonly foldedLastNames = new Map<string, PreparedName>();
  readonly companies = new Map<string, string>();
  readonly texts = new Map<string, string>();
  readonly births = new Map<string, BirthDate | undefined>();
  readonly nameLocals = new NameLocals();

  constructor(readonly nicknames: Nicknames) {}

  name(raw: string | null | undefined, first: boolean): PreparedName {
    const written = raw ?? '';
    const byWritten = first ? this.firstNames : this.lastNames;
    let prepared = byWritten.get(written);
    if (!prepared) {
      // Names written differently may fold alike (`José`, `Jose`): one entry, its lists shared.
      const name = squash(written);
      const byFolded = first ? this.foldedFirstNames : this.foldedLastNames;
      prepared = byFolded.get(name);
      if (!prepared) {
        prepared = {
          name,
          codes: codesOf(name),
          roots: first && name !== '' ? this.nicknames.rootsOf(name) : [],
        };
        byFolded.set(name, prepared);
      }
      byWritten.set(written, prepared);
    }
    return prepared;
  }

  company(raw: string | null | undefined): string {
    if (!raw) return '';
    let key = this.companies.get(raw);
    if (key === undefined) this.companies.set(raw, (key = companyKey(raw)));
    return key;
  }

  /** Birth dates are shared: many people have one, and it is never changed. */
  birthday(raw: string | null | undefined): BirthDate | undefined {
    if (!raw) return undefined;
    const birth = this.births.get(raw);
    if (birth !== undefined || this.births.has(raw)) return birth;
    const parsed = parseBirthday(raw);
    this.births.set(raw, parsed);
    return parsed;
  }

  text(raw: string | null | undefined): string {
    if (!raw) return '';
    let folded = this.texts.get(raw);
    if (folded === undefined) this.texts.set(raw, (folded = fold(raw)));
    return folded;
  }
}

/** One list for every person without values: nothing allocated per person for an absent field. */
export const NONE: readonly string[] = Object.freeze([]);

/**
 * The values of a list, each mapped, the empty ones left out; an array of exactly its length (a
 * list built by pushing or filtering keeps spare room, which a few hundred thousand people pay
 * for), or NONE. Lists of one or two, most of them, are made as literals: no call back per value,
 * and V8 may learn that what a literal's site makes is all kept and make it in the old generation,
 * where the young one would copy it twice first.
 */
const mapped = (values: readonly string[] | undefined, map: (value: string) => string): readonly string[] => {
  if (!values || values.length === 0) return NONE;
  if (values.length === 1) {
    const only = map(values[0]!);
    return only === '' ? NONE : [only];
  }
  if (values.length === 2) {
    const one = map(values[0]!);
    const two = map(values[1]!);
    if (one === '') return two === '' ? NONE : [two];
    return two === '' ? [one] : [one, two];
  }
  const out = values.map(map);
  if (!out.includes('')) return out;
  const kept = out.filter((value) => value !== '');
  return kept.length === 0 ? NONE : kept.slice();
};

/** The digits of each local part, in their order (the empty kept, as the parts are). */
const digitsOfEach = (locals: readonly string[]): readonly string[] => {
  if (locals === NONE) return NONE;
  if (locals.length === 1) return [digitsOf(locals[0]!)];
  if (locals.length === 2) return [digitsOf(locals[0]!), digitsOf(locals[1]!)];
  return locals.map(digitsOf);
};

export const normalEmail = (email: string): string => email.trim().toLowerCase();

const ZERO = 0x30;
const NINE = 0x39;
const isDigit = (code: number): boolean => code >= ZERO && code <= NINE;

const NOT_PHONE_DIGITS = /[^\d+]/gu;
const PLUS = 0x2b;

/** A phone's digits and `+`, when there are six or more; a phone given as E.164 is that already. */
export const phoneDigits = (phone: string): string => {
  let digits = phone;
  for (let i = 0; i < phone.length; i++) {
    const code = phone.charCodeAt(i);
    if (code !== PLUS && !isDigit(code)) {
      digits = phone.replace(NOT_PHONE_DIGITS, '');
      break;
    }
  }
  return digits.length >= 6 ? digits : '';
};

const NOT_DIGITS = /\D+/gu;

/** `bsmith84` -> `84`: the one run of digits most local parts have taken as it is, without a regex. */
export const digitsOf = (local: string): string => {
  let from = 0;
  while (from < local.length && !isDigit(local.charCodeAt(from))) from++;
  if (from === local.length) return '';
  let to = from + 1;
  while (to < local.length && isDigit(local.charCodeAt(to))) to++;
  for (let k = to + 1; k < local.length; k++)
    if (isDigit(local.charCodeAt(k))) return local.replace(NOT_DIGITS, '');
  return local.slice(from, to);
};

/** A person's first and last name: as given, or split from the full name when neither is. */
export const namesOf = (
  person: PersonFields,
  cache: PrepareCache,
): { firstName: PreparedName; lastName: PreparedName } => {
  const firstName = cache.name(person.firstName, true);
  const lastName = cache.name(person.lastName, false);
  if (firstName.name !== '' || lastName.name !== '') return { firstName, lastName };
  const split = splitFullName(person.fullName);
  return { firstName: cache.name(split.first, true), lastName: cache.name(split.last, false) };
};

/** A person's single values as the comparisons read them. */
export interface SingleValues {
  company: string;
  jobTitle: string;
  birth: BirthDate | undefined;
  street: string;
  postcode: string;
  city: string;
}

/** The single values of a person: one place for how each is made, prepared at once or staged. */
export const singleValuesOf = (person: PersonFields, cache: PrepareCache): SingleValues => ({
  company: cache.company(person.company),
  jobTitle: cache.text(person.jobTitle),
  birth: cache.birthday(person.birthday),
  street: fold(person.street),
  postcode: squash(person.postcode),
  city: cache.text(person.city),
});

/** What is prepared of a person value by value, before its e-mails' local parts are looked at. */
export interface PersonValues extends SingleValues {
  firstName: PreparedName;
  lastName: PreparedName;
  /** Normalized, the empty left out (mapped). */
  emails: readonly string[];
  phones: readonly string[];
}

/** Whether every local part is made from the person's name (true when there is none). */
const allFromName = (
  locals: readonly string[],
  first: string,
  last: string,
  firstRoots: readonly string[],
  cache: PrepareCache,
): boolean => {
  if (locals.length === 0) return true;
  const names = { first, last, firstRoots };
  for (const local of locals) if (!cache.nameLocals.madeFromName(local, names)) return false;
  return true;
};

/** The person as the comparisons read it, from its values. */
export const preparedOf = (values: PersonValues, cache: PrepareCache): Prepared => {
  const { firstName, lastName, emails } = values;
  const first = firstName.name;
  const last = lastName.name;
  const firstRoots = firstName.roots;
  const locals = mapped(emails, localPart);
  // Every field set, in one order: people share one object shape, with no room for more.
  return {
    first,
    last,
    firstCodes: firstName.codes,
    lastCodes: lastName.codes,
    firstRoots,
    locals,
    localsFromName: allFromName(locals, first, last, firstRoots, cache),
    localDigits: digitsOfEach(locals),
    emails,
    phones: values.phones,
    company: values.company,
    jobTitle: values.jobTitle,
    birth: values.birth,
    street: values.street,
    postcode: values.postcode,
    city: values.city,
  };
};

export const prepare = (
  person: PersonFields,
  nicknames: Nicknames,
  cache = new PrepareCache(nicknames),
): Prepared => {
  const { firstName, lastName } = namesOf(person, cache);
  return preparedOf(
    {
      firstName,
      lastName,
      emails: mapped(person.emails, normalEmail),
      phones: mapped(person.phones, phoneDigits),
      ...singleValuesOf(person, cache),
    },
    cache,
  );
};
