/**
 * Many short texts (e-mails, phones) kept as characters in one growing byte buffer rather than
 * as a string each. A string kept per person while a run reads is an object the young
 * generation's collections copy until it is promoted, and one sliced from the row it was read
 * from keeps that whole row alive with it; bytes in a buffer are neither copied nor marked.
 *
 * A text is written a character at a time (`append`, then `commit` or `rollback`), or whole
 * (`push`). A text with a character above U+00FF, which a byte cannot hold, is kept as the string
 * itself, aside: such e-mails are rare.
 *
 * The texts are read where they are: hashed, compared and measured in place, without a string
 * made of each.
 */
import { Buffer } from 'node:buffer';
import { IntList } from './int-list.js';
import { hashCharOn, hashOf, HASH_START } from './text.js';

const LATIN1_MAX = 0xff;

export class TextList {
  /** The characters, a byte each. */
  private bytes = new Uint8Array(1 << 16);
  /** Every text committed, decoded at once (`at`). */
  private decoded: string | undefined;
  /** `bytes` as a Buffer, for decoding: made once per `bytes`. */
  private view: Buffer | undefined;
  private used = 0;
  /** Where each text ends in `bytes`. */
  private readonly ends = new IntList();
  /** The texts that a byte per character cannot hold, by their number. */
  private readonly wide = new Map<number, string>();

  /** The texts committed. */
  get size(): number {
    return this.ends.length;
  }

  /** The length of the text being written. */
  get pending(): number {
    return this.used - this.lastEnd();
  }

  /** One more character (U+00FF or below) of the text being written. */
  append(code: number): void {
    if (this.used === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
      this.view = undefined;
    }
    this.bytes[this.used++] = code;
  }

  /** Ends the text being written: it is the next text. */
  commit(): void {
    this.ends.push(this.used);
  }

  /** Forgets the text being written. */
  rollback(): void {
    this.used = this.lastEnd();
  }

  /** A whole text as it is. */
  push(text: string): void {
    for (let k = 0; k < text.length; k++) {
      const code = text.charCodeAt(k);
      if (code > LATIN1_MAX) {
        this.pushWide(text);
        return;
      }
      this.append(code);
    }
    this.commit();
  }

  /** A text with a character a byte cannot hold, written aside (what was appended of it is dropped). */
  pushWide(text: string): void {
    this.rollback();
    this.wide.set(this.ends.length, text);
    this.commit();
  }

  /**
   * Text number k: a slice of every text decoded at once, for a list read many times once
   * complete (a text added since is decoded with all the others again).
   */
  at(k: number): string {
    const wide = this.wide.size === 0 ? undefined : this.wide.get(k);
    if (wide !== undefined) return wide;
    const end = this.ends.data[k]!;
    if (this.decoded === undefined || end > this.decoded.length)
      this.decoded = this.latin1(0, this.lastEnd());
    return this.decoded.slice(this.startOf(k), end);
  }

  /** The characters from `start` to `end` as a string. */
  private latin1(start: number, end: number): string {
    this.view ??= Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
    return this.view.toString('latin1', start, end);
  }

  /**
   * Where text k starts in `characters()`, or -1 when it is one kept aside (`at` gives it): for a
   * caller reading many texts' characters in place.
   */
  placeOf(k: number): number {
    return this.wide.size > 0 && this.wide.has(k) ? -1 : this.startOf(k);
  }

  /** Where text k ends in `characters()`. */
  endOf(k: number): number {
    return this.ends.data[k]!;
  }

  /** Every text's characters, a byte each, valid until a text is added. */
  characters(): Uint8Array {
    return this.bytes;
  }

  /** The text kept aside for k, if it is one. */
  private wideAt(k: number): string | undefined {
    return this.wide.size === 0 ? undefined : this.wide.get(k);
  }

  private startOf(k: number): number {
    return k === 0 ? 0 : this.ends.data[k - 1]!;
  }

  /** The length of text k. */
  lengthOf(k: number): number {
    const wide = this.wideAt(k);
    return wide === undefined ? this.ends.data[k]! - this.startOf(k) : wide.length;
  }

  /** The character of text k at `offset`. */
  codeAt(k: number, offset: number): number {
    const wide = this.wideAt(k);
    return wide === undefined ? this.bytes[this.startOf(k) + offset]! : wide.charCodeAt(offset);
  }

  /** text.ts `hashOf(text k, from)`. */
  hashOf(k: number, from = 0): number {
    const wide = this.wideAt(k);
    if (wide !== undefined) return hashOf(wide, from);
    const { bytes } = this;
    let hash = HASH_START;
    for (let at = this.startOf(k) + from, end = this.ends.data[k]!; at < end; at++)
      hash = hashCharOn(hash, bytes[at]!);
    return hash >>> 0;
  }

  /** Whether texts k and l are the same. */
  same(k: number, l: number): boolean {
    if (this.eitherWide(k, l)) return this.at(k) === this.at(l);
    const ends = this.ends.data;
    let x = k === 0 ? 0 : ends[k - 1]!;
    let y = l === 0 ? 0 : ends[l - 1]!;
    const xEnd = ends[k]!;
    if (xEnd - x !== ends[l]! - y) return false;
    const { bytes } = this;
    while (x < xEnd) if (bytes[x++] !== bytes[y++]) return false;
    return true;
  }

  /** Whether texts k and l both have `count` characters or more and end with the same `count`. */
  sameEnd(k: number, l: number, count: number): boolean {
    if (this.eitherWide(k, l)) {
      const x = this.at(k);
      const y = this.at(l);
      return x.length >= count && y.length >= count && x.endsWith(y.slice(y.length - count));
    }
    const xEnd = this.ends.data[k]!;
    const yEnd = this.ends.data[l]!;
    if (xEnd - this.startOf(k) < count || yEnd - this.startOf(l) < count) return false;
    const { bytes } = this;
    for (let i = 1; i <= count; i++) if (bytes[xEnd - i] !== bytes[yEnd - i]) return false;
    return true;
  }

  /**
   * Every text, in order: slices of one string of all the characters, made by one call rather
   * than one per text.
   */
  texts(): string[] {
    const all = this.latin1(0, this.used);
    const { data, length } = this.ends;
    // Made at its length and filled, then set: pushing would copy it as it grows, a slot at a time.
    const texts = new Array<string>(length).fill('');
    let start = 0;
    for (let k = 0; k < length; k++) {
      const end = data[k]!;
      if (start !== end) texts[k] = all.slice(start, end);
      start = end;
    }
    for (const [k, text] of this.wide) texts[k] = text;
    return texts;
  }

  /** A list of the texts given. */
  static of(texts: readonly string[]): TextList {
    const list = new TextList();
    for (const text of texts) list.push(text);
    return list;
  }

  /** Whether text k or l is one kept aside. */
  private eitherWide(k: number, l: number): boolean {
    return this.wide.size > 0 && (this.wide.has(k) || this.wide.has(l));
  }

  private lastEnd(): number {
    const { length } = this.ends;
    return length === 0 ? 0 : this.ends.data[length - 1]!;
  }
}
