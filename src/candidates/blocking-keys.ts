/**
 * The blocking keys of a person (blocking.ts): as text, and as the hashes the blocks are made of,
 * worked out from the person's parts without writing a key out.
 */
import type { FlatPeople } from './flat-people.js';
import type { Prepared } from './prepare.js';
import { hashCharOn, HASH_START, hashNumberOn, hashOn } from './text.js';

const initialOf = (name: string): string => name[0] ?? '';

/** The blocking keys of one person; `lookup` numbers a key (the same number for the same key). */
export const keysOf = (p: Prepared): string[] => {
  const keys: string[] = [];
  const lastCode = p.lastCodes[0];
  const firstCode = p.firstCodes[0];
  if (lastCode && p.first !== '') {
    for (const root of p.firstRoots) keys.push(`n:${lastCode}|${initialOf(root)}`);
  }
  if (firstCode && p.last !== '') keys.push(`n:${firstCode}|${initialOf(p.last)}`);
  for (const local of p.locals) if (local.length >= 3 && !/^\d+$/u.test(local)) keys.push(`e:${local}`);
  for (const phone of p.phones) keys.push(`p:${phone}`);
  const year = p.birth?.year;
  if (year !== undefined) {
    keys.push(`b:${year}-${p.birth!.month}-${p.birth!.day}`);
    // A typo in one name and a wrong day: the other name's sound and the year still agree.
    if (lastCode) keys.push(`y:${lastCode}|${year}`);
    if (firstCode) keys.push(`y:${firstCode}|${year}`);
  }
  const number = p.street.split(' ')[0];
  if (p.postcode !== '' && number) keys.push(`a:${p.postcode}|${number}`);
  return [...new Set(keys)];
};

const PIPE = 0x7c;
const DASH = 0x2d;
const prefix = (tag: string): number => hashOn(HASH_START, tag);
const NAME = prefix('n:');
const EMAIL = prefix('e:');
const PHONE = prefix('p:');
const BIRTH = prefix('b:');
const YEAR = prefix('y:');
const ADDRESS = prefix('a:');

/**
 * `hashOf` of each of keysOf(person i), worked out from the parts without writing a key out (a
 * key may come twice: the blocks take a person once per hash).
 */
export const keyHashesOf = (people: FlatPeople, i: number, visit: (hash: number) => void): void => {
  const into = new Uint32Array(mostKeysOf(people, i));
  const count = keyHashesInto(people, i, into, 0);
  for (let k = 0; k < count; k++) visit(into[k]!);
};

/** At least as many keys as person i has: what keyHashesInto may write. */
export const mostKeysOf = (people: FlatPeople, i: number): number =>
  people.firstNames[i]!.roots.length +
  (people.localStart[i + 1]! - people.localStart[i]!) +
  (people.phoneStart[i + 1]! - people.phoneStart[i]!) +
  FIXED_KEYS;

/** Keys a person has at most besides one per nickname root, local part and phone. */
const FIXED_KEYS = 5;

const ZERO = 0x30;
const NINE = 0x39;

/** `/^\d+$/u.test(value)`, without running a pattern per local part. */
const onlyDigits = (value: string): boolean => {
  if (value.length === 0) return false;
  for (let k = 0; k < value.length; k++) {
    const code = value.charCodeAt(k);
    if (code < ZERO || code > NINE) return false;
  }
  return true;
};

/**
 * keyHashesOf written into `into` from `at` (room for mostKeysOf): returns how many. Written in
 * place rather than handed to a callback, as it runs for every key of every person.
 */
export const keyHashesInto = (people: FlatPeople, i: number, into: Uint32Array, at: number): number => {
  const firstName = people.firstNames[i]!;
  const lastName = people.lastNames[i]!;
  const first = firstName.name;
  const last = lastName.name;
  const lastCode = lastName.codes[0];
  const firstCode = firstName.codes[0];
  let k = at;
  if (lastCode && first !== '') {
    const name = hashCharOn(hashOn(NAME, lastCode), PIPE);
    const roots = firstName.roots;
    for (let r = 0; r < roots.length; r++) {
      const root = roots[r]!;
      into[k++] = hashOn(name, root, 0, Math.min(1, root.length)) >>> 0;
    }
  }
  if (firstCode && last !== '')
    into[k++] = hashOn(hashCharOn(hashOn(NAME, firstCode), PIPE), last, 0, Math.min(1, last.length)) >>> 0;
  const { locals, localStart, phones, phoneStart } = people;
  for (let l = localStart[i]!; l < localStart[i + 1]!; l++) {
    const local = locals[l]!;
    if (local.length >= 3 && !onlyDigits(local)) into[k++] = hashOn(EMAIL, local) >>> 0;
  }
  for (let l = phoneStart[i]!; l < phoneStart[i + 1]!; l++) into[k++] = hashOn(PHONE, phones[l]!) >>> 0;
  const birth = people.births[i];
  if (birth?.year !== undefined) {
    const year = birth.year;
    into[k++] =
      hashNumberOn(
        hashCharOn(hashNumberOn(hashCharOn(hashNumberOn(BIRTH, year), DASH), birth.month), DASH),
        birth.day,
      ) >>> 0;
    if (lastCode) into[k++] = hashNumberOn(hashCharOn(hashOn(YEAR, lastCode), PIPE), year) >>> 0;
    if (firstCode) into[k++] = hashNumberOn(hashCharOn(hashOn(YEAR, firstCode), PIPE), year) >>> 0;
  }
  const street = people.streets[i]!;
  const postcode = people.postcodes[i]!;
  const space = street.indexOf(' ');
  const numberEnd = space < 0 ? street.length : space;
  if (postcode !== '' && numberEnd > 0)
    into[k++] = hashOn(hashCharOn(hashOn(ADDRESS, postcode), PIPE), street, 0, numberEnd) >>> 0;
  return k - at;
};
