import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, type CsvError, type Options, type Parser } from 'csv-parse';
import { ImportError } from '../errors/index.js';
import type { HeaderIssue, InputFormat, OpenedSource, SourceItem, SourceProblem } from '../pipeline/types.js';
import { readCsvHead } from './csv-head.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import { detectDelimiter } from './detect.js';
import { nameHeader } from './header.js';
import { MAX_RECORD_CHARS } from './limits.js';
import type { TextSource } from './text-source.js';

export interface CsvOptions {
  path: string;
  format: Extract<InputFormat, 'csv' | 'tsv'>;
  delimiter?: string;
  skipLines?: number;
}

interface HeaderItem {
  kind: 'header';
  raw: string;
}

type ParsedItem = SourceItem | HeaderItem;

/** What csv-parse hands `on_record` with `raw: true`. */
interface RawRecord {
  record: string[];
  raw: string;
}

/** csv-parse's raw text can carry the line breaks around a record; a record never starts or ends with one unquoted. */
function trimLineBreaks(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && (raw.charCodeAt(start) === 10 || raw.charCodeAt(start) === 13)) start++;
  while (end > start && (raw.charCodeAt(end - 1) === 10 || raw.charCodeAt(end - 1) === 13)) end--;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}

async function* concat(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield next.value;
  }
}

/** The state csv-parse keeps per record; its `record` array is replaced when a record ends. */
const currentRecord = (parser: Parser): unknown => (parser as unknown as { state?: { record?: unknown } }).state?.record;

/**
 * Reads a CSV or TSV input as rows keyed by header name. Blank lines are not records: they are
 * skipped and take no row number. A record csv-parse cannot parse (a stray or unclosed quote) is a
 * `row_unparseable` problem and reading goes on; a record with another number of fields than the
 * header is `row_ragged`; one longer than MAX_RECORD_CHARS ends the read with an ImportError,
 * since the parser cannot find where the next record starts.
 */
export async function openCsv(text: TextSource, options: CsvOptions): Promise<OpenedSource> {
  const { path: file, format } = options;
  const skipLines = options.skipLines ?? 0;
  const head = await readCsvHead(text.chunks, { file, skipLines });
  const delimiter =
    options.delimiter ?? (format === 'tsv' ? '\t' : detectDelimiter(head.bytes.subarray(head.headerStart, head.headerEnd)));
  const { transcoder } = text;

  let names: string[] = [];
  let headerIssues: HeaderIssue[] = [];
  let hasProtoName = false;
  let headerSeen = false;
  let row = 0;
  let pending: { record: unknown; error: CsvError; raw: string } | undefined;

  const problem = (code: SourceProblem['code'], message: string, raw: string): SourceProblem => ({
    kind: 'problem',
    file,
    row,
    code,
    message,
    raw,
  });

  const takePending = (): SourceProblem | undefined => {
    if (!pending) return undefined;
    const { error, raw } = pending;
    pending = undefined;
    row++;
    return problem('row_unparseable', `Row ${row} of ${file} cannot be parsed: ${error.message.replace(/ at line \d+/, '')}.`, showInvalid(trimLineBreaks(raw)));
  };

  const toItem = (record: string[], rawText: string): ParsedItem => {
    const raw = trimLineBreaks(rawText);
    if (!headerSeen) {
      // Named here, not after the header is awaited: csv-parse parses the rest of the chunk at once.
      headerSeen = true;
      ({ names, issues: headerIssues } = nameHeader(record, file));
      hasProtoName = names.includes('__proto__');
      return { kind: 'header', raw };
    }
    row++;
    if (transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
      return problem('invalid_encoding', `Row ${row} of ${file} holds bytes that are not valid ${text.encoding}.`, showInvalid(raw));
    }
    if (transcoder.nulSeen && raw.includes('\0')) {
      return problem('row_unparseable', `Row ${row} of ${file} holds a NUL character; expected text.`, raw);
    }
    if (record.length !== names.length) {
      return problem('row_ragged', `Row ${row} of ${file} has ${record.length} field(s); the header has ${names.length}.`, raw);
    }
    const values: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      if (hasProtoName && name === '__proto__') {
        Object.defineProperty(values, name, { value: record[index], enumerable: true, writable: true, configurable: true });
      } else values[name] = record[index];
    }
    return { kind: 'row', file, row, values, raw };
  };

  const csvOptions: Options<ParsedItem, RawRecord> = {
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: format === 'tsv',
    skip_records_with_error: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    raw: true,
    bom: false,
    on_record: ({ record, raw }) => {
      const held = takePending();
      if (held) parser.push(held);
      return toItem(record, raw);
    },
    on_skip: (error: CsvError | undefined, raw: string | undefined) => {
      const line = skipLines + 1;
      if (!headerSeen) {
        throw new ImportError(
          'input_unreadable',
          `The header of ${file} (line ${line}) cannot be parsed: ${error?.message ?? 'unknown error'}; expected a line of column names.`,
          { file, line },
        );
      }
      if (error?.code === 'CSV_MAX_RECORD_SIZE') {
        throw new ImportError(
          'input_unreadable',
          `Row ${row + (pending ? 2 : 1)} of ${file} is longer than ${MAX_RECORD_CHARS} characters (a quote left open, or not ${format.toUpperCase()}); reading stopped there.`,
          { file, row: row + (pending ? 2 : 1) },
        );
      }
      const record = currentRecord(parser);
      // One record can raise several errors (each stray quote); it is one problem, with the first message.
      if (pending && record !== undefined && pending.record === record) {
        pending.raw = raw ?? pending.raw;
        return undefined;
      }
      const held = takePending();
      if (held) parser.push(held);
      if (error) pending = { record, error, raw: raw ?? '' };
      return undefined;
    },
  };
  // csv-parse's overloads type records as string arrays; with `raw: true` they are `RawRecord`.
  const parser: Parser = parse(csvOptions as unknown as Options);

  const source = Readable.from(concat(head.bytes.subarray(head.headerStart), text.chunks), { objectMode: false });
  const done = pipeline(source, parser).catch(() => undefined);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedItem>;

  const first = await iterator.next().catch(async (error: unknown) => {
    await text.close();
    throw error;
  });
  if (first.done || first.value.kind !== 'header') {
    await text.close();
    throw new ImportError('input_unreadable', `${file} has no header line; expected a line of column names.`, { file, line: skipLines + 1 });
  }
  const header = first.value;

  const info = { path: file, format, encoding: text.encoding, delimiter, rows: 0 };

  async function* items(): AsyncGenerator<SourceItem> {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const item = next.value;
        if (item.kind === 'header') continue;
        info.rows++;
        yield item;
      }
      const held = takePending();
      if (held) {
        info.rows++;
        yield held;
      }
    } finally {
      await iterator.return?.();
      await done;
      await text.close();
    }
  }

  return {
    info,
    header: names,
    rawHeader: header.raw,
    headerIssues,
    items: items(),
    close: async () => {
      parser.destroy();
      await text.close();
    },
  };
}
