/** Text folding for comparison: lower case, accents off, punctuation to spaces. */

const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** `José  O'Brien-Smith` -> `jose o brien smith`; empty when nothing is left. */
export const fold = (value: string | null | undefined): string => {
  if (!value) return '';
  return value.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(NOT_WORD, ' ').trim();
};

const NOT_ASCII_WORD = /[^A-Za-z0-9]+/gu;
const SPACE = 0x20;
const ZERO = 0x30;
const TILDE = 0x7e;
const NINE = 0x39;
const LOWER_A = 0x61;
const LOWER_Z = 0x7a;

/** Folded, without spaces: `o brien` and `obrien` compare equal. */
export const squash = (value: string | null | undefined): string => {
  if (!value) return '';
  // Printable ASCII (most local parts and many names) folds to its letters and digits, lower-cased:
  // that, without normalizing it and replacing twice; and lower-case letters and digits alone are
  // folded already.
  let folded = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < SPACE || code > TILDE) return fold(value).replaceAll(' ', '');
    if (folded && (code < ZERO || code > LOWER_Z || (code > NINE && code < LOWER_A))) folded = false;
  }
  return folded ? value : value.replace(NOT_ASCII_WORD, '').toLowerCase();
};

/** The words of a folded value. */
export const words = (folded: string): string[] => (folded === '' ? [] : folded.split(' '));

/** FNV-1a's starting value: a key's hash is carried on over its parts from here. */
export const HASH_START = 0x811c9dc5;

/** FNV-1a carried on over the characters of `value` from `from` to `to`. */
export const hashOn = (hash: number, value: string, from = 0, to = value.length): number => {
  for (let k = from; k < to; k++) hash = Math.imul(hash ^ value.charCodeAt(k), 0x01000193);
  return hash;
};

/** FNV-1a carried on over one character. */
export const hashCharOn = (hash: number, code: number): number => Math.imul(hash ^ code, 0x01000193);

/** FNV-1a carried on over a whole number's decimal digits, as `${number}` writes them (not negative). */
export const hashNumberOn = (hash: number, number: number): number =>
  hashCharOn(number >= 10 ? hashNumberOn(hash, Math.floor(number / 10)) : hash, ZERO + (number % 10));

const isDigitCode = (code: number): boolean => code >= ZERO && code <= NINE;

/** hashOf the digits of a value, one after another (`bsmith84` -> hashOf(`84`)), without making them. */
export const hashOfDigits = (value: string): number => {
  let hash = HASH_START;
  for (let k = 0; k < value.length; k++) {
    const code = value.charCodeAt(k);
    if (isDigitCode(code)) hash = hashCharOn(hash, code);
  }
  return hash >>> 0;
};

/** Whether two values have the same digits in the same order, whatever else they hold. */
export const sameDigits = (x: string, y: string): boolean => {
  let k = 0;
  let l = 0;
  for (;;) {
    while (k < x.length && !isDigitCode(x.charCodeAt(k))) k++;
    while (l < y.length && !isDigitCode(y.charCodeAt(l))) l++;
    if (k === x.length || l === y.length) return k === x.length && l === y.length;
    if (x.charCodeAt(k++) !== y.charCodeAt(l++)) return false;
  }
};

/**
 * FNV-1a: a 32-bit hash of a value's characters from `from` on. Equal values hash equal; two
 * values that hash equal may still differ, so a caller compares them when the hashes agree.
 */
export const hashOf = (value: string, from = 0): number => hashOn(HASH_START, value, from) >>> 0;
