import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, type CsvError, type Parser } from 'csv-parse';
import { ImportError } from '../core/errors/index.js';
import type { InputFormat, OpenedSource, SourceItem, SourceProblem } from '../core/types.js';
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

/** What csv-parse yields with `raw: true`. */
interface RawRecord {
  record: string[];
  raw: string;
}

/** A record csv-parse skipped; `group` tells errors of one record from those of the next. */
interface SkipMarker {
  skip: true;
  group: unknown;
  error: CsvError;
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
const currentRecord = (parser: Parser): unknown =>
  (parser as unknown as { state?: { record?: unknown } }).state?.record;

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
    options.delimiter ??
    (format === 'tsv' ? '\t' : detectDelimiter(head.bytes.subarray(head.headerStart, head.headerEnd)));
  const { transcoder } = text;

  let names: string[] = [];
  let hasProtoName = false;
  let row = 0;

  const problem = (code: SourceProblem['code'], message: string, raw: string): SourceProblem => ({
    kind: 'problem',
    file,
    row,
    code,
    message,
    raw,
  });

  const unparseable = (skip: SkipMarker): SourceProblem => {
    row++;
    const reason = skip.error.message.replace(/ at line \d+/, '');
    return problem(
      'row_unparseable',
      `Row ${row} of ${file} cannot be parsed: ${reason}.`,
      showInvalid(trimLineBreaks(skip.raw)),
    );
  };

  const toItem = ({ record, raw: rawText }: RawRecord): SourceItem => {
    const raw = trimLineBreaks(rawText);
    row++;
    if (transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
      return problem(
        'invalid_encoding',
        `Row ${row} of ${file} holds bytes that are not valid ${text.encoding}.`,
        showInvalid(raw),
      );
    }
    if (transcoder.nulSeen && raw.includes('\0')) {
      return problem('row_unparseable', `Row ${row} of ${file} holds a NUL character; expected text.`, raw);
    }
    if (record.length !== names.length) {
      return problem(
        'row_ragged',
        `Row ${row} of ${file} has ${record.length} field(s); the header has ${names.length}.`,
        raw,
      );
    }
    const values: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) {
      const name = names[index]!;
      if (hasProtoName && name === '__proto__') {
        Object.defineProperty(values, name, {
          value: record[index],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else values[name] = record[index];
    }
    return { kind: 'row', file, row, values, raw };
  };

  // Skipped records travel in the parser's output as markers, so they keep their place among rows.
  let skipGroups = 0;
  let lastGroup: unknown;
  const parser: Parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: format === 'tsv',
    skip_records_with_error: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    raw: true,
    bom: false,
    on_skip: (error: CsvError | undefined, raw: string | undefined) => {
      const line = skipLines + 1;
      if (parser.info.records === 0) {
        throw new ImportError(
          'input_unreadable',
          `The header of ${file} (line ${line}) cannot be parsed: ${error?.message ?? 'unknown error'}; expected a line of column names.`,
          { file, line },
        );
      }
      const group = currentRecord(parser);
      const sameRecord = group !== undefined && group === lastGroup;
      if (error?.code === 'CSV_MAX_RECORD_SIZE') {
        const tooLong = parser.info.records + skipGroups + (sameRecord ? -1 : 0);
        throw new ImportError(
          'input_unreadable',
          `Row ${tooLong} of ${file} is longer than ${MAX_RECORD_CHARS} characters (a quote left open, or not ${format.toUpperCase()}); reading stopped there.`,
          { file, row: tooLong },
        );
      }
      if (!sameRecord) skipGroups++;
      lastGroup = group;
      if (error) parser.push({ skip: true, group, error, raw: raw ?? '' } satisfies SkipMarker);
      return undefined;
    },
  });

  const source = Readable.from(concat(head.bytes.subarray(head.headerStart), text.chunks), {
    objectMode: false,
  });
  const done = pipeline(source, parser).catch(() => undefined);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<RawRecord | SkipMarker>;

  const first = await iterator.next().catch(async (error: unknown) => {
    await text.close();
    throw error;
  });
  if (first.done || 'skip' in first.value) {
    await text.close();
    throw new ImportError(
      'input_unreadable',
      `${file} has no header line; expected a line of column names.`,
      { file, line: skipLines + 1 },
    );
  }
  const rawHeader = trimLineBreaks(first.value.raw);
  const { names: headerNames, issues: headerIssues } = nameHeader(first.value.record, file);
  names = headerNames;
  hasProtoName = names.includes('__proto__');

  const info = { path: file, format, encoding: text.encoding, delimiter, rows: 0 };

  async function* items(): AsyncGenerator<SourceItem> {
    // One record can raise several errors (each stray quote): they make one problem, with the first message.
    let pending: SkipMarker | undefined;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        const item = next.value;
        if ('skip' in item) {
          if (pending && item.group !== undefined && item.group === pending.group) {
            pending.raw = item.raw;
            continue;
          }
          if (pending) {
            info.rows++;
            yield unparseable(pending);
          }
          pending = { ...item };
          continue;
        }
        if (pending) {
          info.rows++;
          yield unparseable(pending);
          pending = undefined;
        }
        info.rows++;
        yield toItem(item);
      }
      if (pending) {
        info.rows++;
        yield unparseable(pending);
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
    rawHeader,
    headerIssues,
    items: items(),
    close: async () => {
      parser.destroy();
      await text.close();
    },
  };
}
