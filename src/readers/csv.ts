import { ImportError } from '../core/errors/index.js';
import type { InputFormat, OpenedSource, SourceItem, SourceProblem } from '../core/types.js';
import { readCsvHead } from './csv-head.js';
import { CsvRecordReader, CsvRecordTooLong, type CsvEntry } from './csv-records.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import { detectDelimiter } from './detect.js';
import { nameHeader } from './header.js';
import { countLineBreaks } from './line-breaks.js';
import { MAX_RECORD_CHARS } from './limits.js';
import type { TextSource } from './text-source.js';

export interface CsvOptions {
  path: string;
  format: Extract<InputFormat, 'csv' | 'tsv'>;
  delimiter?: string;
  skipLines?: number;
}

async function* concat(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/**
 * Reads a CSV or TSV input as rows keyed by header name. Blank lines are not records: they are
 * skipped and take no row number. A record csv-parse cannot parse (a stray or unclosed quote) is a
 * `row_unparseable` problem that costs that record only: reading resumes at the next line that
 * starts a record of the header's width (see CsvRecordReader). A record with another number of
 * fields than the header is `row_ragged`; a single line longer than MAX_RECORD_CHARS ends the read
 * with an ImportError, since no next line can be found within bounds.
 */
export async function openCsv(text: TextSource, options: CsvOptions): Promise<OpenedSource> {
  const { path: file, format } = options;
  const skipLines = options.skipLines ?? 0;
  const head = await readCsvHead(text.chunks, { file, skipLines });
  const delimiter =
    options.delimiter ??
    (format === 'tsv' ? '\t' : detectDelimiter(head.bytes.subarray(head.headerStart, head.headerEnd)));
  const { transcoder } = text;
  const headerLine = 1 + countLineBreaks(head.bytes, 0, head.headerStart);
  const reader = new CsvRecordReader(concat(head.bytes.subarray(head.headerStart), text.chunks), {
    delimiter,
    relaxQuotes: format === 'tsv',
    maxRecordBytes: MAX_RECORD_CHARS,
    firstLine: headerLine,
  });

  let row = 0;
  const tooLong = (error: unknown, what: string): unknown =>
    error instanceof CsvRecordTooLong
      ? new ImportError(
          'input_unreadable',
          `${what} of ${file} is longer than ${MAX_RECORD_CHARS} characters (it starts at line ${error.line}; a quote left open, or not ${format.toUpperCase()}); reading stopped there.`,
          { file, row: row + 1, line: error.line },
        )
      : error;

  const first = await reader.next().catch(async (error: unknown) => {
    await text.close();
    throw tooLong(error, 'The header');
  });
  const header = first?.[0];
  if (!header || header.kind === 'malformed') {
    await text.close();
    throw new ImportError(
      'input_unreadable',
      header
        ? `The header of ${file} (line ${header.line}) cannot be parsed: ${header.reason}; expected a line of column names.`
        : `${file} has no header line; expected a line of column names.`,
      { file, line: header?.line ?? headerLine },
    );
  }
  const { names, issues: headerIssues } = nameHeader(header.fields, file);
  const hasProtoName = names.includes('__proto__');

  const problem = (
    code: SourceProblem['code'],
    line: number,
    message: string,
    raw: string,
  ): SourceProblem => ({ kind: 'problem', file, row, line, code, message, raw });

  const toItem = (entry: CsvEntry): SourceItem => {
    row++;
    const { raw, line } = entry;
    if (entry.kind === 'malformed') {
      const resumed = entry.resumedAt === undefined ? '' : `; reading resumed at line ${entry.resumedAt}`;
      return problem(
        'row_unparseable',
        line,
        `Row ${row} of ${file} (line ${line}) cannot be parsed: ${entry.reason}${resumed}.`,
        showInvalid(raw),
      );
    }
    if (transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
      return problem(
        'invalid_encoding',
        line,
        `Row ${row} of ${file} holds bytes that are not valid ${text.encoding}.`,
        showInvalid(raw),
      );
    }
    if (transcoder.nulSeen && raw.includes('\0')) {
      return problem(
        'row_unparseable',
        line,
        `Row ${row} of ${file} holds a NUL character; expected text.`,
        raw,
      );
    }
    const { fields } = entry;
    if (fields.length !== names.length) {
      return problem(
        'row_ragged',
        line,
        `Row ${row} of ${file} has ${fields.length} field(s); the header has ${names.length}.`,
        raw,
      );
    }
    const values: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      if (hasProtoName && name === '__proto__') {
        Object.defineProperty(values, name, {
          value: fields[index],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else values[name] = fields[index];
    }
    return { kind: 'row', file, row, line, values, raw };
  };

  const info = { path: file, format, encoding: text.encoding, delimiter, rows: 0 };

  async function* items(): AsyncGenerator<SourceItem> {
    try {
      let batch = first!.slice(1);
      for (;;) {
        for (const entry of batch) {
          info.rows++;
          yield toItem(entry);
        }
        const next = await reader.next().catch((error: unknown) => {
          throw tooLong(error, `Row ${row + 1}`);
        });
        if (!next) break;
        batch = next;
      }
    } finally {
      await text.close();
    }
  }

  return {
    info,
    header: names,
    rawHeader: header.raw,
    headerLine: header.line,
    headerIssues,
    items: items(),
    close: text.close,
  };
}
