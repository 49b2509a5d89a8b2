import type { CsvError } from 'csv-parse';
import { CsvParse } from './csv-parse-adapter.js';
import { HeldBytes } from './held-bytes.js';

const LF = 0x0a;
const CR = 0x0d;

/** One record of a CSV/TSV input: its fields, its text without line breaks around it, its first line. */
export interface CsvRecord {
  kind: 'record';
  fields: string[];
  raw: string;
  /** 1-based line of the file where the record starts. */
  line: number;
}

/**
 * Text the parser could not read as a record: from the line where the record started up to the
 * line where reading could resume. `resumedAt` is that line, or undefined when the file ended.
 */
export interface CsvMalformed {
  kind: 'malformed';
  raw: string;
  line: number;
  reason: string;
  resumedAt: number | undefined;
}

export type CsvEntry = CsvRecord | CsvMalformed;

/** A record longer than `maxRecordBytes` on a single line: no next line to resume at within bounds. */
export class CsvRecordTooLong extends Error {
  constructor(readonly line: number) {
    super(`the record at line ${line} is too long`);
  }
}

export interface CsvRecordOptions {
  delimiter: string;
  relaxQuotes: boolean;
  maxRecordBytes: number;
  /** The line of the file the first byte given is on (after a preamble). */
  firstLine: number;
}

/** Bytes given to the parser at a time (see feed). */
const FEED_BYTES = 8 * 1024;

/** A failed record: where it started and why, while the reader looks for a line to resume at. */
interface Failure {
  start: number;
  line: number;
  reason: string;
  /** Start of the last line given up: the next line is the next to try. */
  givenUp: number;
  /** Start of the line being tried, once found. */
  probe: number | undefined;
}

/**
 * Splits a CSV/TSV byte stream (UTF-8) into records with csv-parse, keeping each record's first
 * line and text. A record the parser cannot read costs that record only: the text from its first
 * line is given up line by line until a line starts a record of the header's width (the first
 * record's), and parsing resumes there with a fresh parser. A multi-line record of another width
 * is treated the same way, since a quote out of place is what makes a record swallow lines.
 * Only the bytes from the start of the record being parsed (or given up) are held.
 */
export class CsvRecordReader {
  private readonly held = new HeldBytes();
  private atEnd = false;
  private finished = false;
  private core!: CsvParse;
  /** Absolute offset where the current parser started. */
  private base = 0;
  /** Absolute offset fed to the current parser so far. */
  private fed = 0;
  private endFed = false;
  /** Record ends (absolute, after the record delimiter) and fields, as the parser pushed them. */
  private pushed: { end: number; fields: string[] }[] = [];
  /** Where the next record's text (with any blank lines before it) begins, and its line. */
  private recordStart = 0;
  private line: number;
  private width: number | undefined;
  private failure: Failure | undefined;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly options: CsvRecordOptions,
  ) {
    this.line = options.firstLine;
    this.restart(0);
  }

  /** The next records in file order; undefined once the input is exhausted. */
  async next(): Promise<CsvEntry[] | undefined> {
    for (;;) {
      if (this.finished) return undefined;
      if (this.failure && this.failure.probe === undefined) {
        const found = this.seekProbe(this.failure);
        if (found === 'more') await this.pull();
        else if (found === 'end') return [this.giveUp(this.failure, this.held.end, undefined)];
        continue;
      }
      if (this.fed < this.held.end) {
        const out = this.feed();
        if (out.length > 0) return out;
        continue;
      }
      if (!this.atEnd) {
        await this.pull();
        continue;
      }
      if (this.endFed) return undefined;
      this.endFed = true;
      const error = await this.core.end();
      const out = this.settle(error);
      if (out.length > 0) return out;
    }
  }

  private onRecord = (fields: string[], bytes: number): void => {
    this.pushed.push({ end: this.base + bytes, fields });
  };

  private async pull(): Promise<void> {
    // What is held is one record (csv-parse bounds it), blank lines, or text given up: bounded too.
    const bound = 2 * this.options.maxRecordBytes;
    if (!this.failure && this.held.end - this.recordStart > bound) this.skipBlankLines();
    if (this.held.end - (this.failure?.start ?? this.recordStart) > bound) {
      throw new CsvRecordTooLong(this.failure?.line ?? this.line);
    }
    const next = await this.chunks.next();
    if (next.done) this.atEnd = true;
    else if (next.value.length > 0) this.held.push(next.value);
  }

  /**
   * Blank lines are no record: a long run of them is counted and let go rather than held as the
   * start of the next record's text.
   */
  private skipBlankLines(): void {
    const { start, leading } = this.contentStart(this.recordStart, this.fed - 1);
    if (leading === 0) return;
    this.line += leading;
    this.recordStart = start;
    this.held.dropBefore(start);
  }

  private readonly measured = { start: 0, stop: 0, leading: 0, inner: 0, raw: '' };

  /**
   * A record's text in [from, end): where it starts after blank lines (and how many), where it
   * stops before its line break, the line breaks inside it (quoted), and the text. Reuses one
   * object: this runs for every record.
   */
  private measure(from: number, end: number): CsvRecordReader['measured'] {
    const out = this.measured;
    const one = this.held.partOf(from, end);
    if (!one) {
      const { start, leading } = this.contentStart(from, end);
      out.start = start;
      out.leading = leading;
      out.stop = this.contentStop(start, end);
      out.inner = this.held.lineBreaks(start, out.stop);
      out.raw = this.held.text(start, out.stop);
      return out;
    }
    const { part, offset } = one;
    let start = from - offset;
    let stop = end - offset;
    let leading = 0;
    for (let byte = part[start]; start < stop && (byte === LF || byte === CR); byte = part[start]) {
      leading++;
      start += byte === CR && part[start + 1] === LF && start + 1 < stop ? 2 : 1;
    }
    while (stop > start && (part[stop - 1] === LF || part[stop - 1] === CR)) stop--;
    out.start = start + offset;
    out.stop = stop + offset;
    out.leading = leading;
    out.inner = this.held.lineBreaksIn(part, start, stop);
    out.raw = part.toString('utf8', start, stop);
    return out;
  }

  /** Skips the line breaks at `from` (blank lines before a record), stopping before `limit`. */
  private contentStart(from: number, limit: number): { start: number; leading: number } {
    let start = from;
    let leading = 0;
    for (let byte = this.held.byteAt(start); start < limit && (byte === LF || byte === CR);) {
      leading++;
      start++;
      const next = this.held.byteAt(start);
      if (byte === CR && next === LF) {
        start++;
        byte = this.held.byteAt(start);
      } else byte = next;
    }
    return { start, leading };
  }

  /** The end of a record's text: before the line break that ends it, if any. */
  private contentStop(start: number, end: number): number {
    let stop = end;
    for (let byte = this.held.byteAt(stop - 1); stop > start && (byte === LF || byte === CR);) {
      stop--;
      byte = this.held.byteAt(stop - 1);
    }
    return stop;
  }

  private restart(at: number): void {
    this.core = new CsvParse(this.options, this.onRecord);
    this.base = at;
    this.fed = at;
    this.endFed = false;
    this.pushed = [];
  }

  /**
   * Feeds what is held beyond `fed` in slices of FEED_BYTES, settling after each: what a failed
   * record makes the reader parse again (the text after it that the parser had already read) is
   * at most one slice. csv-parse copies every slice it is given, so slicing costs no extra copy.
   */
  private feed(): CsvEntry[] {
    let error: CsvError | undefined;
    this.held.forEachFrom(this.fed, (piece, end) => {
      const slice = piece.length > FEED_BYTES ? piece.subarray(0, FEED_BYTES) : piece;
      this.fed = end - piece.length + slice.length;
      error = this.core.write(slice);
      return false;
    });
    return this.settle(error);
  }

  /**
   * Turns pushed records into entries. A parse error, a multi-line record of another width than
   * the header's, or a failed try at resuming starts (or continues) giving lines up.
   */
  private settle(error: CsvError | undefined): CsvEntry[] {
    const out: CsvEntry[] = [];
    const pushed = this.pushed;
    this.pushed = [];
    for (const { end, fields } of pushed) {
      const widthDiffers = this.width !== undefined && fields.length !== this.width;
      const { start, stop, leading, inner, raw } = this.measure(this.recordStart, end);
      const line = this.line + leading;
      if (this.failure) {
        // The first record from the line tried: the file is back in step when it has the header's width.
        if (widthDiffers) return this.tryNextLine(out);
        out.push(this.giveUp(this.failure, this.failure.probe!, line));
      }
      if (widthDiffers && inner > 0) {
        const reason = `its quotes do not pair up: it reads as ${fields.length} field(s) over ${inner + 1} lines`;
        this.fail(start, line, reason);
        return out;
      }
      this.width ??= fields.length;
      out.push({ kind: 'record', fields, raw, line });
      this.line = line + inner + (stop < end ? 1 : 0);
      this.recordStart = end;
    }
    this.held.dropBefore(this.failure?.start ?? this.recordStart);
    if (!error) return out;
    if (this.failure) return this.tryNextLine(out);
    const { start, leading } = this.contentStart(this.recordStart, this.held.end);
    if (error.code === 'CSV_MAX_RECORD_SIZE' && this.lineEnd(start) === undefined) {
      throw new CsvRecordTooLong(this.line + leading);
    }
    this.fail(start, this.line + leading, error.message.replace(/ (at|on) line \d+/g, ''));
    return out;
  }

  /** The start of the line after the one at `from`, once its line break is held (and known whole). */
  private lineEnd(from: number): number | undefined {
    let found: number | undefined;
    let offset = from;
    this.held.forEachFrom(from, (piece, end) => {
      const lf = piece.indexOf(LF);
      const cr = piece.indexOf(CR);
      const first = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (first !== -1) found = offset + first + 1;
      offset = end;
      return found === undefined;
    });
    if (found === undefined || this.held.byteAt(found - 1) !== CR) return found;
    // A CR may be the first half of CR LF: decided by the next byte, or by the end of the input.
    if (found === this.held.end) return this.atEnd ? found : undefined;
    return this.held.byteAt(found) === LF ? found + 1 : found;
  }

  private fail(start: number, line: number, reason: string): void {
    this.failure = { start, line, reason, givenUp: start, probe: undefined };
    this.pushed = [];
  }

  /** The line tried did not start a record of the header's width: it is given up too. */
  private tryNextLine(out: CsvEntry[]): CsvEntry[] {
    const failure = this.failure!;
    failure.givenUp = failure.probe!;
    failure.probe = undefined;
    this.pushed = [];
    return out;
  }

  /**
   * Finds the start of the line after the last one given up and restarts the parser there:
   * 'more' when that line's end is not read yet, 'end' when the input ends first.
   */
  private seekProbe(failure: Failure): 'found' | 'more' | 'end' {
    const next = this.lineEnd(failure.givenUp);
    if (next === undefined || (this.atEnd && next === this.held.end)) return this.atEnd ? 'end' : 'more';
    failure.probe = next;
    this.line = failure.line + this.held.lineBreaks(failure.start, next);
    this.recordStart = next;
    this.restart(next);
    return 'found';
  }

  /** The text given up, from its first line up to `until`, as one malformed entry. */
  private giveUp(failure: Failure, until: number, resumedAt: number | undefined): CsvMalformed {
    this.failure = undefined;
    if (resumedAt === undefined) this.finished = true;
    return {
      kind: 'malformed',
      raw: this.held.text(failure.start, this.contentStop(failure.start, until)),
      line: failure.line,
      reason: failure.reason,
      resumedAt,
    };
  }
}
