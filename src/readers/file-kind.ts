import { extname } from 'node:path';
import { ImportError } from '../core/errors/index.js';

/** Binary files users hand a text reader by mistake, told by their first bytes. */
export type BinaryKind = 'xlsx' | 'ods' | 'zip' | 'cfb';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Compound File Binary: Excel 97-2003 workbooks, and password-protected .xlsx files too. */
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * What kind of binary file starts with `prefix`, or undefined when it is none of these. A ZIP is
 * told apart by the part names and media type near its start: OpenDocument stores its mimetype
 * first; an Office Open XML workbook keeps its parts under `xl/`.
 */
export function describeBinaryKind(prefix: Buffer): BinaryKind | undefined {
  if (prefix.subarray(0, CFB_MAGIC.length).equals(CFB_MAGIC)) return 'cfb';
  if (!prefix.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) return undefined;
  const names = prefix.toString('latin1');
  if (names.includes('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
  if (names.includes('xl/')) return 'xlsx';
  return 'zip';
}

const TEXT_KIND: Record<string, string> = {
  '.csv': 'CSV text',
  '.tsv': 'TSV text',
  '.json': 'JSON text',
  '.ndjson': 'NDJSON text',
  '.jsonl': 'NDJSON text',
};

/**
 * Stops a text read of a workbook or archive with one line that says what the file is and what
 * to do, instead of a complaint about NUL bytes.
 */
export function assertNotBinaryKind(prefix: Buffer, path: string): void {
  const kind = describeBinaryKind(prefix);
  if (kind === undefined) return;
  const stdin = path === '-';
  const name = stdin ? 'Standard input' : path;
  const expected = TEXT_KIND[extname(path).toLowerCase()] ?? 'text';
  const messages: Record<BinaryKind, string> = {
    xlsx: stdin
      ? `${name} is an Excel workbook (.xlsx), not ${expected}: save it as a file ending in .xlsx and give its path.`
      : `${name} is an Excel workbook (.xlsx), not ${expected}: rename it to .xlsx.`,
    ods: `${name} is an OpenDocument spreadsheet (.ods), not ${expected}: save it as .xlsx or CSV.`,
    zip: `${name} is a ZIP archive, not ${expected}: unzip it and give the file inside.`,
    cfb: `${name} is an old Excel 97-2003 workbook (.xls), not ${expected}: save it as .xlsx or CSV.`,
  };
  throw new ImportError('input_format_unsupported', messages[kind], { file: path });
}

/** Spreadsheet files known by their extension that this tool does not read, and what to do instead. */
export const UNSUPPORTED_SPREADSHEETS: Record<string, string> = {
  '.xls': 'is an old Excel 97-2003 workbook: save it as .xlsx or CSV.',
  '.xlsb': 'is an Excel binary workbook: save it as .xlsx or CSV.',
  '.ods': 'is an OpenDocument spreadsheet: save it as .xlsx or CSV.',
  '.numbers': 'is an Apple Numbers spreadsheet: export it as .xlsx or CSV.',
};
