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
import { NULL, TYPO } from './comparisons.js';
import type { Prepared } from './prepare.js';
import { similarOnce } from './similarity.js';
import { hashOf } from './text.js';

/** Where a person's counts sit from its start: e-mails, local parts, phones; then the hashes. */
const HEADER = 3;

/** The last seven characters of a phone number of seven or more. */
const LAST_SEVEN = 7;

/** `x.slice(-7) === y.slice(-7)` for numbers of seven digits or more, without making the slices. */
const sameLastSeven = (x: string, y: string): boolean => {
  if (x.length < LAST_SEVEN || y.length < LAST_SEVEN) return false;
  for (let i = 1; i <= LAST_SEVEN; i++)
    if (x.charCodeAt(x.length - i) !== y.charCodeAt(y.length - i)) return false;
  return true;
};

export class ComparablePeople {
  /**
   * Person i's entries from start[i]: its count of e-mails, of local parts and of phones, then
   * the hashes of the e-mails, the local parts, each local part's digits, the phones and each
   * phone's last seven digits (0 for a shorter one).
   */
  private readonly start: Int32Array;
  private readonly hashes: Int32Array;

  constructor(readonly prepared: readonly Prepared[]) {
    this.start = new Int32Array(prepared.length + 1);
    let size = 0;
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i]!;
      this.start[i] = size;
      size += HEADER + p.emails.length + 2 * p.locals.length + 2 * p.phones.length;
    }
    this.start[prepared.length] = size;
    const hashes = (this.hashes = new Int32Array(size));
    for (let i = 0; i < prepared.length; i++) {
      const p = prepared[i]!;
      let at = this.start[i]!;
      hashes[at++] = p.emails.length;
      hashes[at++] = p.locals.length;
      hashes[at++] = p.phones.length;
      for (const email of p.emails) hashes[at++] = hashOf(email);
      for (const local of p.locals) hashes[at++] = hashOf(local);
      for (const digits of p.localDigits) hashes[at++] = hashOf(digits);
      for (const phone of p.phones) hashes[at++] = hashOf(phone);
      for (const phone of p.phones)
        hashes[at++] = phone.length >= LAST_SEVEN ? hashOf(phone, phone.length - LAST_SEVEN) : 0;
    }
  }

  get size(): number {
    return this.prepared.length;
  }

  /**
   * The best level over every pair of e-mails. Local parts with other digits (`jsmith84`,
   * `jsmith33`) are two people's more often than a typo.
   */
  emailLevel(i: number, j: number): number {
    const { hashes } = this;
    const x = this.start[i]!;
    const y = this.start[j]!;
    const xEmails = hashes[x]!;
    const yEmails = hashes[y]!;
    if (xEmails === 0 || yEmails === 0) return NULL;
    const a = this.prepared[i]!;
    const b = this.prepared[j]!;
    const xFrom = x + HEADER;
    const yFrom = y + HEADER;
    for (let k = 0; k < xEmails; k++)
      for (let l = 0; l < yEmails; l++)
        if (hashes[xFrom + k] === hashes[yFrom + l] && a.emails[k] === b.emails[l]) return 3;
    const xLocals = hashes[x + 1]!;
    const yLocals = hashes[y + 1]!;
    const xLocal = xFrom + xEmails;
    const yLocal = yFrom + yEmails;
    let best = 0;
    for (let k = 0; k < xLocals; k++) {
      for (let l = 0; l < yLocals; l++) {
        if (hashes[xLocal + k] === hashes[yLocal + l] && a.locals[k] === b.locals[l]) return 2;
        if (
          best < 1 &&
          hashes[xLocal + xLocals + k] === hashes[yLocal + yLocals + l] &&
          a.localDigits[k] === b.localDigits[l] &&
          a.locals[k]!.length >= 4 &&
          similarOnce(a.locals[k]!, b.locals[l]!, TYPO)
        )
          best = 1;
      }
    }
    return best;
  }

  /** The same number, or the same last seven digits of numbers of seven digits or more. */
  phoneLevel(i: number, j: number): number {
    const { hashes } = this;
    const x = this.start[i]!;
    const y = this.start[j]!;
    const xPhones = hashes[x + 2]!;
    const yPhones = hashes[y + 2]!;
    if (xPhones === 0 || yPhones === 0) return NULL;
    const a = this.prepared[i]!;
    const b = this.prepared[j]!;
    const xPhone = x + HEADER + hashes[x]! + 2 * hashes[x + 1]!;
    const yPhone = y + HEADER + hashes[y]! + 2 * hashes[y + 1]!;
    let best = 0;
    for (let k = 0; k < xPhones; k++) {
      for (let l = 0; l < yPhones; l++) {
        if (hashes[xPhone + k] === hashes[yPhone + l] && a.phones[k] === b.phones[l]) return 2;
        if (
          best === 0 &&
          hashes[xPhone + xPhones + k] === hashes[yPhone + yPhones + l] &&
          sameLastSeven(a.phones[k]!, b.phones[l]!)
        )
          best = 1;
      }
    }
    return best;
  }
}
