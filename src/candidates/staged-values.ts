/**
 * The values of people being staged, each numbered once as it is first read: a person then
 * stages a number per value (staged-people.ts) and the value itself is worked out once per
 * distinct value as written. Number 0 is the empty value.
 */
import type { PrepareCache, PreparedName } from './prepare.js';
import { localPart, normalEmail } from './prepare.js';
import type { TextList } from './text-list.js';

/** Distinct values of one field, each made once from the first value written that way. */
export class Numbering<T> {
  /** By the value as written (a look-up makes no key string). */
  private readonly byWritten = new Map<string, number>();
  /** By the value made, so that values written otherwise but made alike share a number. */
  private readonly byValue = new Map<T, number>();
  /** The values made, by number. */
  readonly values: T[];

  constructor(
    empty: T,
    private readonly make: (written: string) => T,
  ) {
    this.values = [empty];
    this.byValue.set(empty, 0);
  }

  numberOf(written: string | null | undefined): number {
    if (!written) return 0;
    let number = this.byWritten.get(written);
    if (number === undefined) {
      const value = this.make(written);
      number = this.byValue.get(value);
      if (number === undefined) {
        number = this.values.push(value) - 1;
        this.byValue.set(value, number);
      }
      this.byWritten.set(written, number);
    }
    return number;
  }
}

/**
 * First and last names, numbered by the name folded: a first and a last name that fold alike share
 * a number (what they are compared by when swapped), with what each gives as a first name and as
 * a last name (the cache's, nickname roots only for a first name).
 */
export class NameNumbering {
  private readonly byName = new Map<string, number>([['', 0]]);
  /** The names folded, by number. */
  readonly names: string[] = [''];
  /** By number, the name as a first name and as a last name (the empty name where not met as one). */
  readonly firsts: PreparedName[];
  readonly lasts: PreparedName[];
  private readonly firstByWritten = new Map<string, number>();
  private readonly lastByWritten = new Map<string, number>();

  constructor(private readonly cache: PrepareCache) {
    this.firsts = [cache.name('', true)];
    this.lasts = [cache.name('', false)];
  }

  first(written: string | null | undefined): number {
    return this.numbered(written ?? '', true, this.firstByWritten, this.firsts);
  }

  last(written: string | null | undefined): number {
    return this.numbered(written ?? '', false, this.lastByWritten, this.lasts);
  }

  /** The number of a first or last name as written, its preparation kept under it the first time. */
  private numbered(
    written: string,
    isFirst: boolean,
    byWritten: Map<string, number>,
    prepared: PreparedName[],
  ): number {
    let number = byWritten.get(written);
    if (number === undefined) {
      const name = this.cache.name(written, isFirst);
      number = this.numberOf(name.name);
      prepared[number] = name;
      byWritten.set(written, number);
    }
    return number;
  }

  private numberOf(name: string): number {
    let number = this.byName.get(name);
    if (number === undefined) {
      number = this.names.push(name) - 1;
      this.byName.set(name, number);
      // Every number has both entries, so that the lists stay without holes.
      this.firsts.push(this.firsts[0]!);
      this.lasts.push(this.lasts[0]!);
    }
    return number;
  }
}

const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const ASCII_MAX = 0x7f;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
const TO_LOWER = 0x20;
const PLUS = 0x2b;
const ZERO = 0x30;
const NINE = 0x39;

/** The white space `trim` removes, of the ASCII characters. */
const isAsciiSpace = (code: number): boolean => code === SPACE || (code >= TAB && code <= CARRIAGE_RETURN);

/**
 * normalEmail(email) onto the end of `into`, left out when empty: an e-mail of ASCII characters
 * (nearly all) is trimmed and lower-cased as it is copied, without making a string. Whether what
 * was appended is the e-mail as written (normalizing it changed nothing, and it is not empty).
 */
export const appendEmail = (email: string, into: TextList): boolean => {
  for (let k = 0; k < email.length; k++)
    if (email.charCodeAt(k) > ASCII_MAX) {
      const normal = normalEmail(email);
      if (normal !== '') into.push(normal);
      return normal === email;
    }
  let from = 0;
  let to = email.length;
  while (from < to && isAsciiSpace(email.charCodeAt(from))) from++;
  while (to > from && isAsciiSpace(email.charCodeAt(to - 1))) to--;
  if (from === to) return false;
  let asWritten = from === 0 && to === email.length;
  for (let k = from; k < to; k++) {
    const code = email.charCodeAt(k);
    if (code >= UPPER_A && code <= UPPER_Z) {
      into.append(code + TO_LOWER);
      asWritten = false;
    } else into.append(code);
  }
  into.commit();
  return asWritten;
};

/** Digits a phone needs to be compared (prepare.ts `phoneDigits`). */
const PHONE_DIGITS = 6;

/** phoneDigits(phone) onto the end of `into`, left out when empty: its digits and `+`, when six or more. */
export const appendPhoneDigits = (phone: string, into: TextList): void => {
  for (let k = 0; k < phone.length; k++) {
    const code = phone.charCodeAt(k);
    if (code === PLUS || (code >= ZERO && code <= NINE)) into.append(code);
  }
  if (into.pending >= PHONE_DIGITS) into.commit();
  else into.rollback();
};

const AT_SIGN = 0x40;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const TILDE = 0x7e;

/**
 * prepare.ts `localPart` of e-mail k onto the end of `into`, left out when empty. Read from the
 * characters where it is printable ASCII (text.ts `squash` keeps its letters and digits then,
 * lower-cased); made from the e-mail as a string otherwise.
 */
export const appendLocalPart = (emails: TextList, k: number, into: TextList): void => {
  const start = emails.placeOf(k);
  if (start < 0) {
    pushLocalPart(emails.at(k), into);
    return;
  }
  const bytes = emails.characters();
  let end = emails.endOf(k);
  for (let at = end - 1; at >= start; at--)
    if (bytes[at] === AT_SIGN) {
      end = at;
      break;
    }
  // The first `+` before the `@` ends the local part.
  for (let at = start; at < end; at++)
    if (bytes[at] === PLUS) {
      end = at;
      break;
    }
  for (let at = start; at < end; at++) {
    const code = bytes[at]!;
    if (code < SPACE || code > TILDE) {
      pushLocalPart(emails.at(k), into);
      return;
    }
  }
  for (let at = start; at < end; at++) {
    const code = bytes[at]!;
    if ((code >= ZERO && code <= NINE) || (code >= LOWER_A && code <= LOWER_Z)) into.append(code);
    else if (code >= UPPER_A && code <= UPPER_Z) into.append(code + TO_LOWER);
  }
  if (into.pending > 0) into.commit();
};

const pushLocalPart = (email: string, into: TextList): void => {
  const local = localPart(email);
  if (local !== '') into.push(local);
};
