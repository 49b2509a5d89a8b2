import { isAscii, isUtf8 } from 'node:buffer';

/**
 * Stands in for bytes that are not valid UTF-8. A noncharacter (U+FDD0) rather than U+FFFD, so a
 * U+FFFD written in the file on purpose is not mistaken for a decoding failure.
 */
export const INVALID_MARK = '\uFDD0';
const INVALID_MARK_BYTES = Buffer.from(INVALID_MARK, 'utf8');

/**
 * Stands in for half of a UTF-16 surrogate pair decoded from a UTF-16 input: written as UTF-8 it
 * would become U+FFFD unseen. Another noncharacter, so readers can tell it and warn.
 */
export const LONE_SURROGATE_MARK = '\uFDD1';

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** `text` with each half of a surrogate pair standing alone replaced by `by`. */
export const replaceLoneSurrogates = (text: string, by: string): string => text.replace(LONE_SURROGATES, by);

/** Length of `bytes` without a multi-byte sequence cut off at its end (it may complete later). */
export function completeUtf8Length(bytes: Buffer): number {
  const length = bytes.length;
  for (let index = length - 1; index >= 0 && index >= length - 4; index--) {
    const byte = bytes[index]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return length;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return length - index < needed ? index : length;
  }
  return length;
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Length of the valid sequence starting at `index`, or 0 when the byte there starts none. */
export function sequenceLength(bytes: Buffer, index: number): number {
  const lead = bytes[index]!;
  if (lead < 0x80) return 1;
  const second = bytes[index + 1];
  if (lead >= 0xc2 && lead <= 0xdf) return isContinuation(second) ? 2 : 0;
  if (second === undefined) return 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const secondOk =
      lead === 0xe0
        ? second >= 0xa0 && second <= 0xbf
        : lead === 0xed
          ? second >= 0x80 && second <= 0x9f
          : isContinuation(second);
    return secondOk && isContinuation(bytes[index + 2]) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const secondOk =
      lead === 0xf0
        ? second >= 0x90 && second <= 0xbf
        : lead === 0xf4
          ? second >= 0x80 && second <= 0x8f
          : isContinuation(second);
    return secondOk && isContinuation(bytes[index + 2]) && isContinuation(bytes[index + 3]) ? 4 : 0;
  }
  return 0;
}

/** Valid UTF-8 where each invalid byte became INVALID_MARK. Only called on chunks that fail `isUtf8`. */
export function repairUtf8(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let runStart = 0;
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length > 0) {
      index += length;
      continue;
    }
    if (index > runStart) parts.push(bytes.subarray(runStart, index));
    parts.push(INVALID_MARK_BYTES);
    index += 1;
    runStart = index;
  }
  if (runStart < bytes.length) parts.push(bytes.subarray(runStart));
  return Buffer.concat(parts);
}

export { isAscii, isUtf8 };
