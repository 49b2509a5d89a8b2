import { ImportError } from '../core/errors/index.js';
import { MAX_RECORD_CHARS } from './limits.js';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** Where the preamble ends and the header line lies in the first bytes of a CSV input. */
export interface CsvHead {
  /** Everything read so far (UTF-8). */
  bytes: Buffer;
  /** Offset of the header line (after the preamble and any blank lines). */
  headerStart: number;
  /** Offset just past the header line's last cell (its line break excluded). */
  headerEnd: number;
  /** True when the input ended within what was read. */
  atEnd: boolean;
}

/**
 * Reads just enough of a CSV input to find its header line: skips `skipLines` physical lines
 * (CR, LF or CRLF; quotes mean nothing in a preamble), then blank lines, then takes the header up
 * to its first line break outside quotes. Scans incrementally so a huge header costs one pass.
 */
export async function readCsvHead(
  chunks: AsyncIterator<Buffer>,
  options: { file: string; skipLines: number },
): Promise<CsvHead> {
  const { file, skipLines } = options;
  let bytes: Buffer = Buffer.alloc(0);
  let atEnd = false;
  let position = 0;
  let linesSkipped = 0;
  let headerStart = -1;
  let quoted = false;

  const more = async (): Promise<void> => {
    const next = await chunks.next();
    if (next.done) atEnd = true;
    else bytes = bytes.length === 0 ? next.value : Buffer.concat([bytes, next.value]);
  };

  for (;;) {
    // A CR as the last byte read may be the first half of a CRLF: decide once the next byte is known.
    while (position < bytes.length && (position < bytes.length - 1 || bytes[position] !== CR || atEnd)) {
      const byte = bytes[position]!;
      if (linesSkipped < skipLines) {
        if (byte === LF || byte === CR) {
          linesSkipped++;
          position += byte === CR && bytes[position + 1] === LF ? 2 : 1;
        } else position++;
        continue;
      }
      if (headerStart === -1) {
        if (byte === LF || byte === CR) {
          position++;
          continue;
        }
        headerStart = position;
      }
      if (byte === QUOTE) quoted = !quoted;
      else if (!quoted && (byte === LF || byte === CR)) {
        return { bytes, headerStart, headerEnd: position, atEnd };
      }
      position++;
    }
    if (headerStart === -1 && position > MAX_RECORD_CHARS) {
      throw new ImportError(
        'input_unreadable',
        `${file} has no header line within its first ${MAX_RECORD_CHARS} bytes (after ${linesSkipped} preamble line(s)); expected a header of column names.`,
        { file, line: linesSkipped + 1 },
      );
    }
    if (headerStart !== -1 && position - headerStart > MAX_RECORD_CHARS) {
      throw new ImportError(
        'input_unreadable',
        `The header line of ${file} (line ${skipLines + 1}) is longer than ${MAX_RECORD_CHARS} bytes; expected a header of column names${quoted ? ' (a quote may be unclosed)' : ''}.`,
        { file, line: skipLines + 1 },
      );
    }
    if (atEnd) break;
    await more();
  }
  if (headerStart === -1) {
    const what =
      linesSkipped < skipLines
        ? `has ${linesSkipped + (position > 0 ? 1 : 0)} line(s), fewer than the ${skipLines} preamble line(s) to skip and a header`
        : skipLines > 0
          ? `has nothing after its ${skipLines} preamble line(s); expected a header line`
          : 'is empty; expected a header line';
    throw new ImportError('input_unreadable', `${file} ${what}.`, { file, line: linesSkipped + 1 });
  }
  return { bytes, headerStart, headerEnd: position, atEnd };
}
