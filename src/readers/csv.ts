import { ImportError } from '../core/errors/index.js';
import type { InputFormat, InputInfo, OpenedSource, SourceItem } from './types.js';
import { readCsvHead } from './csv-head.js';
import { CsvItems } from './csv-items.js';
import { CsvRecordReader, CsvRecordTooLong, type CsvEntry, type CsvMalformed } from './csv-records.js';
import { detectDelimiter } from './detect.js';
import { nameHeader } from './header.js';
import { countLineBreaks } from './line-breaks.js';
import { MAX_RECORD_CHARS } from './limits.js';
import { withLiveEncoding, type TextSource } from './text-source.js';

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

/** The header line's place, the delimiter, and a reader of the records from the header on. */
const openRecords = async (text: TextSource, options: CsvOptions) => {
  const { path: file, format } = options;
  const head = await readCsvHead(text.chunks, { file, skipLines: options.skipLines ?? 0 });
  const delimiter =
    options.delimiter ??
    (format === 'tsv' ? '\t' : detectDelimiter(head.bytes.subarray(head.headerStart, head.headerEnd)));
  const headerLine = 1 + countLineBreaks(head.bytes, 0, head.headerStart);
  const reader = new CsvRecordReader(concat(head.bytes.subarray(head.headerStart), text.chunks), {
    delimiter,
    relaxQuotes: format === 'tsv',
    maxRecordBytes: MAX_RECORD_CHARS,
    firstLine: headerLine,
  });
  return { delimiter, headerLine, reader };
};

/** A record too long to find the next line after becomes an ImportError naming it; others pass. */
const tooLong = (error: unknown, what: string, options: CsvOptions, row: number): unknown =>
  error instanceof CsvRecordTooLong
    ? new ImportError(
        'input_unreadable',
        `${what} of ${options.path} is longer than ${MAX_RECORD_CHARS} characters (it starts at line ${error.line}; a quote left open, or not ${options.format.toUpperCase()}); reading stopped there.`,
        { file: options.path, row: row + 1, line: error.line },
      )
    : error;

const headerUnreadable = (file: string, header: CsvMalformed | undefined, headerLine: number): ImportError =>
  new ImportError(
    'input_unreadable',
    header
      ? `The header of ${file} (line ${header.line}) cannot be parsed: ${header.reason}; expected a line of column names.`
      : `${file} has no header line; expected a line of column names.`,
    { file, line: header?.line ?? headerLine },
  );

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
  const { delimiter, headerLine, reader } = await openRecords(text, options);
  const first = await reader.next().catch(async (error: unknown) => {
    await text.close();
    throw tooLong(error, 'The header', options, 0);
  });
  const header = first?.[0];
  if (!header || header.kind === 'malformed') {
    await text.close();
    throw headerUnreadable(file, header, headerLine);
  }
  const { names, issues: headerIssues } = nameHeader(header.fields, file);
  const info = withLiveEncoding({ path: file, format, encoding: '', delimiter, rows: 0 }, text);
  const rows = new CsvItems(file, names, text);
  return {
    info,
    header: names,
    rawHeader: header.raw,
    headerLine: header.line,
    headerIssues,
    items: csvItems(first!.slice(1), reader, rows, info, text, options),
    close: text.close,
  };
}

/** The items after the header, batch by batch as the record reader gives them; closes the input. */
async function* csvItems(
  firstBatch: CsvEntry[],
  reader: CsvRecordReader,
  rows: CsvItems,
  info: InputInfo,
  text: TextSource,
  options: CsvOptions,
): AsyncGenerator<SourceItem> {
  try {
    let batch = firstBatch;
    for (;;) {
      for (const entry of batch) {
        info.rows++;
        yield rows.toItem(entry);
      }
      const next = await reader.next().catch((error: unknown) => {
        throw tooLong(error, `Row ${rows.row + 1}`, options, rows.row);
      });
      if (!next) break;
      batch = next;
    }
  } finally {
    await text.close();
  }
}
