/**
 * The readers: CSV, TSV, JSON arrays, NDJSON and vCard, streamed so memory stays flat whatever the input
 * size. Every record carries its file and 1-based data row; records a reader cannot turn into
 * values are yielded as problems, and only a file that cannot be read at all throws ImportError.
 */
import { ImportError } from '../core/errors/index.js';
import type { Dialect, InputFormat, OpenedSource } from './types.js';
import { openCsv } from './csv.js';
import { detectFormat } from './detect.js';
import { openText } from './text-source.js';

export { detectFormat };
export { MAX_JSON_DEPTH, MAX_RECORD_CHARS } from './limits.js';

export interface OpenSourceOptions {
  signal?: AbortSignal;
  /** Read for the path `-`; defaults to process.stdin. */
  stdin?: NodeJS.ReadableStream;
  /** Told the size of each chunk of a text input as it is read (progress); not for workbooks. */
  onBytes?: (count: number) => void;
}

/** How standard input (the path `-`) is named in reports and messages. */
export const STDIN_LABEL = '<stdin>';

/**
 * Opens one input: reads just enough to know its encoding, delimiter and header, then yields its
 * records as `items` are pulled. `info.rows` counts the items consumed so far.
 */
export async function openSource(
  path: string,
  dialect: Dialect,
  options: OpenSourceOptions = {},
): Promise<OpenedSource> {
  const format: InputFormat = dialect.format ?? detectFormat(path);
  // `-` is formula-leading in a spreadsheet and says little in a message; stdin gets a name.
  const file = path === '-' ? STDIN_LABEL : path;
  // The readers of the other formats are imported when an input of theirs comes: the CLI starts
  // without the workbook, vCard and JSON parsers a CSV run never uses.
  if (format === 'xlsx') {
    const { openXlsx } = await import('./xlsx.js');
    return openXlsx({
      path,
      file,
      ...(dialect.sheet !== undefined ? { sheet: dialect.sheet } : {}),
      ...(dialect.skipLines !== undefined ? { skipLines: dialect.skipLines } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  const text = await openText({
    path,
    encoding: dialect.encoding,
    signal: options.signal,
    stdin: options.stdin,
    ...(options.onBytes ? { onBytes: options.onBytes } : {}),
  });
  switch (format) {
    case 'csv':
    case 'tsv':
      return openCsv(text, {
        path: file,
        format,
        delimiter: dialect.delimiter,
        skipLines: dialect.skipLines,
      });
    case 'json':
      return (await import('./json.js')).openJson(text, file);
    case 'ndjson':
      return (await import('./ndjson.js')).openNdjson(text, file);
    case 'vcard':
      return (await import('./vcard.js')).openVcard(text, file);
  }
  throw new ImportError('input_format_unknown', `No reader for the format "${format as string}".`, { file });
}
