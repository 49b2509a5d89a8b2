import { iconv } from './iconv.js';
import { isAscii, isUtf8, repairUtf8, sequenceLength } from './utf8.js';

const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const EMPTY = Buffer.alloc(0);
const WINDOWS_1252 = 'windows-1252';
const UTF_8 = 'utf-8';

/**
 * A line longer than this is decided in pieces of about this size: the carry of an unfinished
 * line stays bounded whatever the input (a record may be far longer; see limits.ts).
 */
export const MAX_LINE_CARRY = 1024 * 1024;

/** Bytes Windows-1252 leaves undefined: text in that encoding never holds them. */
const UNDEFINED_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** How one line's bytes read: as UTF-8, as Windows-1252, or as neither (broken). */
export type LineKind = 'ascii' | 'utf-8' | 'windows-1252' | 'broken';

/**
 * What a line that is not ASCII is. Valid UTF-8 is UTF-8. Otherwise it is Windows-1252 when it
 * could be text in it: no byte that encoding leaves undefined, no control character but TAB, and
 * no valid multi-byte UTF-8 sequence beside the invalid bytes (such a line is UTF-8 damaged, and
 * reading it as Windows-1252 would garble its good characters).
 */
export function lineKind(bytes: Buffer): LineKind {
  if (isAscii(bytes)) return 'ascii';
  if (isUtf8(bytes)) return UTF_8;
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte < 0x20 && byte !== TAB) return 'broken';
    if (UNDEFINED_1252.has(byte)) return 'broken';
    const length = byte < 0x80 ? 1 : sequenceLength(bytes, index);
    if (length > 1) return 'broken';
    index += 1;
  }
  return WINDOWS_1252;
}

/** Where the bytes of the last complete line end (just past its break), 0 when none ends. */
const lastLineEnd = (bytes: Buffer): number => Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR)) + 1;

const toUtf8 = (bytes: Buffer): Buffer => Buffer.from(iconv().decode(bytes, WINDOWS_1252), 'utf8');

/**
 * Decodes an input of undeclared encoding line by line, as UTF-8 or Windows-1252, so a file that
 * is UTF-8 but for a few lines (rows pasted from another program, one bad byte) reads right: each
 * line in the encoding it is valid in, never the whole file in the wrong one.
 *
 * The file's encoding (`encoding`) is told by its first lines that are not ASCII: those of the
 * detection prefix, by majority (a tie is Windows-1252), fix it. When the prefix is all ASCII it is
 * the majority of the lines read so far, fixed as UTF-8 at a UTF-8 line that no Windows-1252 line
 * came before. A line read in another encoding than the file's at that point is noted by line
 * number; readers ask for the notes of each record as they make it (`otherEncodingIn`) and say so
 * in a warning. A line valid in neither gets INVALID_MARK for its bad bytes, and its record is
 * rejected as before; in a file of Windows-1252 it reads as that, as it always did.
 *
 * A clean chunk costs one native validity check and a count of its line breaks: lines are
 * numbered only so a note can name its line.
 */
export class LineTranscoder {
  invalidSeen = false;
  nulSeen = false;
  /** The file's encoding once known for good; until then, the majority of `counts`. */
  private label: string | undefined;
  private readonly counts = { utf8: 0, windows: 0 };
  private carry: Buffer = EMPTY;
  /** 1-based line where the next byte decoded stands. */
  private line = 1;
  /** The last byte decoded was CR: an LF right after it ends no line of its own. */
  private afterCr = false;
  private readonly notes: Array<{ line: number; encoding: string }> = [];
  private notesHead = 0;

  constructor(label?: string) {
    this.label = label;
  }

  /** The file's encoding; `utf-8` until a line that is not ASCII tells. */
  get encoding(): string {
    if (this.label !== undefined) return this.label;
    const { utf8, windows } = this.counts;
    return windows > 0 && windows >= utf8 ? WINDOWS_1252 : UTF_8;
  }

  write(chunk: Buffer): Buffer {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    let cut = lastLineEnd(data);
    // A line too long to hold whole is decided in pieces, each cut where no character is split.
    if (cut === 0 && data.length >= MAX_LINE_CARRY) cut = completeLength(data);
    this.carry = data.subarray(cut);
    return cut === 0 ? EMPTY : this.decode(data.subarray(0, cut));
  }

  end(): Buffer {
    const rest = this.carry;
    this.carry = EMPTY;
    return rest.length > 0 ? this.decode(rest) : EMPTY;
  }

  /**
   * The encoding a line of a record on lines [line, last] was read in, when that is not the
   * file's; undefined when every line of it was read in the file's encoding. Records are asked
   * about in order: notes before `line` are let go.
   */
  otherEncodingIn(line: number, last: number): string | undefined {
    const { notes } = this;
    while (this.notesHead < notes.length && notes[this.notesHead]!.line < line) this.notesHead++;
    if (this.notesHead === notes.length) {
      if (notes.length > 0) notes.length = this.notesHead = 0;
      return undefined;
    }
    const note = notes[this.notesHead]!;
    return note.line <= last ? note.encoding : undefined;
  }

  private decode(bytes: Buffer): Buffer {
    if (!this.nulSeen && bytes.indexOf(0) !== -1) this.nulSeen = true;
    // Until the encoding is fixed, every line that is not ASCII is counted, so each is looked at.
    const clean = this.label === UTF_8 ? isUtf8(bytes) : isAscii(bytes);
    if (clean) {
      this.countLines(bytes);
      return bytes;
    }
    return this.decodeLines(bytes);
  }

  private countLines(bytes: Buffer): void {
    if (bytes.length === 0) return;
    // Native searches rather than a loop over every byte: LFs, plus CRs not followed by an LF.
    let breaks = 0;
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) breaks++;
    for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1)) {
      if (bytes[at + 1] !== LF) breaks++;
    }
    if (this.afterCr && bytes[0] === LF) breaks--;
    this.line += breaks;
    this.afterCr = bytes[bytes.length - 1] === CR;
  }

  /** Each line on its own: the slow path, for a piece that holds a line not in the file's encoding. */
  private decodeLines(bytes: Buffer): Buffer {
    const parts: Buffer[] = [];
    let start = 0;
    while (start < bytes.length) {
      let stop = start;
      while (stop < bytes.length && bytes[stop] !== LF && bytes[stop] !== CR) stop++;
      if (stop > start) parts.push(this.decodeLine(bytes.subarray(start, stop)));
      const breakEnd = Math.min(bytes.length, stop + (bytes[stop] === CR && bytes[stop + 1] === LF ? 2 : 1));
      if (stop < bytes.length) {
        const breakBytes = bytes.subarray(stop, breakEnd);
        parts.push(breakBytes);
        this.countLines(breakBytes);
      }
      start = breakEnd;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  private decodeLine(bytes: Buffer): Buffer {
    this.afterCr = false;
    const kind = lineKind(bytes);
    if (kind === 'ascii') return bytes;
    const before = this.encoding;
    if (this.label === undefined) this.count(kind);
    if (kind === UTF_8) {
      if (before !== UTF_8) this.note(UTF_8);
      return bytes;
    }
    // A file read as Windows-1252 reads every line that is not UTF-8 in it, as it always did.
    if (before === WINDOWS_1252) return toUtf8(bytes);
    if (kind === WINDOWS_1252) {
      this.note(WINDOWS_1252);
      return toUtf8(bytes);
    }
    this.invalidSeen = true;
    return repairUtf8(bytes);
  }

  private count(kind: LineKind): void {
    if (kind === UTF_8) {
      this.counts.utf8++;
      if (this.counts.windows === 0) this.label = UTF_8;
    } else if (kind === WINDOWS_1252) this.counts.windows++;
  }

  private note(encoding: string): void {
    const last = this.notes[this.notes.length - 1];
    if (last?.line !== this.line) this.notes.push({ line: this.line, encoding });
  }
}

/** Length of `bytes` without a UTF-8 sequence cut off at its end. */
const completeLength = (bytes: Buffer): number => {
  for (let index = bytes.length - 1; index >= 0 && index >= bytes.length - 4; index--) {
    const byte = bytes[index]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return bytes.length;
    return sequenceLength(bytes, index) > 0 ? bytes.length : index;
  }
  return bytes.length;
};

/**
 * The encoding a detection prefix tells by its lines that are not ASCII: UTF-8 when more of them
 * are that than Windows-1252, else Windows-1252; undefined when none is either.
 */
export function labelOfPrefix(prefix: Buffer, atEnd: boolean): string | undefined {
  const end = atEnd ? prefix.length : lastLineEnd(prefix);
  const body = prefix.subarray(0, end > 0 ? end : prefix.length);
  if (isAscii(body)) return undefined;
  if (isUtf8(body)) return UTF_8;
  let utf8 = 0;
  let windows = 0;
  let start = 0;
  while (start < body.length) {
    let stop = body.indexOf(LF, start);
    if (stop === -1) stop = body.length;
    const kind = lineKind(body.subarray(start, body[stop - 1] === CR ? stop - 1 : stop));
    if (kind === UTF_8) utf8++;
    else if (kind === WINDOWS_1252) windows++;
    start = stop + 1;
  }
  if (utf8 === 0 && windows === 0) return undefined;
  return windows >= utf8 ? WINDOWS_1252 : UTF_8;
}
