import { ImportError } from '../core/errors/index.js';
import type { InputInfo, OpenedSource, SourceItem } from './types.js';
import { nameSheetHeader } from './xlsx-header.js';
import { HeaderRow } from './header-row.js';
import { readWorkbookModel, type SheetRef } from './xlsx-parts.js';
import { columnLetters, readMergedCells, readSheetRows, type SheetRow } from './xlsx-sheet.js';
import { openWorkbookZip } from './xlsx-zip.js';
import { MAX_SHEET_PART_BYTES } from './limits.js';

export interface XlsxOptions {
  /** The path to open. */
  path: string;
  /** The input's name in reports and messages. */
  file: string;
  /** The worksheet to read; the first visible one when absent. */
  sheet?: string;
  /** Sheet rows before the header to pass over (a title, notes). */
  skipLines?: number;
  signal?: AbortSignal;
}

const quoteList = (sheets: readonly SheetRef[]): string =>
  sheets.map((s) => `"${s.name}"${s.hidden ? ' (hidden)' : ''}`).join(', ');

/** The sheet asked for (exactly, else by a unique case-insensitive match), or the first visible one. */
export function pickSheet(sheets: readonly SheetRef[], wanted: string | undefined, file: string): SheetRef {
  if (sheets.length === 0) {
    throw new ImportError('input_unreadable', `${file} holds no worksheet; expected a sheet of contacts.`, {
      file,
    });
  }
  if (wanted === undefined) return sheets.find((s) => !s.hidden) ?? sheets[0]!;
  const exact = sheets.find((s) => s.name === wanted);
  if (exact) return exact;
  const folded = wanted.trim().toLowerCase();
  const loose = sheets.filter((s) => s.name.trim().toLowerCase() === folded);
  if (loose.length === 1) return loose[0]!;
  throw new ImportError(
    'sheet_not_found',
    `${file} has no sheet named "${wanted}"; its sheets are ${quoteList(sheets)}: give one of them to --sheet.`,
    { file, sheet: wanted },
  );
}

/** One CSV line (RFC 4180 quoting): how a sheet row is written back in rejected.csv. */
const csvLine = (cells: readonly string[]): string =>
  cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');

/**
 * Reads one worksheet of an .xlsx workbook as records: the first row that shows something (after
 * `skipLines` sheet rows) is the header, every later row that shows something is a record, and
 * empty rows are passed over without taking a row number. `line` is the sheet's row number.
 * Cells read as the sheet shows them (see xlsx-cells.ts); the workbook is streamed, never
 * loaded whole (shared strings and styles excepted).
 */
export async function openXlsx(options: XlsxOptions): Promise<OpenedSource> {
  const { file, signal } = options;
  if (options.path === '-') {
    throw new ImportError(
      'input_format_unsupported',
      "An Excel workbook cannot be read from standard input: give the .xlsx file's path instead of -.",
      { file },
    );
  }
  const zip = await openWorkbookZip(options.path, file);
  let rows: AsyncGenerator<SheetRow> | undefined;
  try {
    const workbook = await readWorkbookModel(zip, file);
    const sheet = pickSheet(workbook.sheets, options.sheet, file);
    const merges = await readMergedCells(await zip.stream(sheet.part, MAX_SHEET_PART_BYTES), signal);
    rows = readSheetRows(() => zip.stream(sheet.part, MAX_SHEET_PART_BYTES), workbook, {
      file,
      ...(signal ? { signal } : {}),
    });
    const skipLines = options.skipLines ?? 0;
    let headerRow: SheetRow | undefined;
    for (let next = await rows.next(); !next.done; next = await rows.next()) {
      if (next.value.line > skipLines && next.value.cells.length > 0) {
        headerRow = next.value;
        break;
      }
    }
    if (!headerRow) {
      throw new ImportError(
        'input_unreadable',
        `Sheet "${sheet.name}" of ${file} is empty${skipLines > 0 ? ` after its first ${skipLines} rows` : ''}; expected a row of column names, then a row per contact.`,
        { file, sheet: sheet.name },
      );
    }
    const header = nameSheetHeader(headerRow, merges, file);
    const info: InputInfo = {
      path: file,
      format: 'xlsx',
      encoding: 'utf-8',
      delimiter: null,
      rows: 0,
      sheet: sheet.name,
    };
    return {
      info,
      header: header.names,
      rawHeader: csvLine(header.names),
      headerLine: headerRow.line,
      headerIssues: header.issues,
      items: records(rows, header.names, { file, sheet: sheet.name, info }, zip.close),
      close: async () => {
        await rows?.return(undefined);
        await zip.close();
      },
    };
  } catch (error) {
    await rows?.return(undefined);
    await zip.close();
    throw error;
  }
}

async function* records(
  rows: AsyncGenerator<SheetRow>,
  names: readonly string[],
  where: { file: string; sheet: string; info: InputInfo },
  close: () => Promise<void>,
): AsyncGenerator<SourceItem> {
  const { file, sheet, info } = where;
  const width = names.length;
  const hasProtoName = names.includes('__proto__');
  let row = 0;
  try {
    for await (const sheetRow of rows) {
      if (sheetRow.cells.length === 0) continue;
      row++;
      info.rows++;
      const last = sheetRow.cells[sheetRow.cells.length - 1]!.column;
      const texts = new Array<string>(Math.max(width, last)).fill('');
      for (const { column, text } of sheetRow.cells) texts[column - 1] = text;
      const raw = csvLine(texts);
      const line = sheetRow.line;
      if (last > width) {
        yield {
          kind: 'problem',
          file,
          row,
          line,
          code: 'row_ragged',
          message: `Row ${row} of ${file} (sheet "${sheet}" row ${line}) has a value in column ${columnLetters(last)}, right of the header's last column ${columnLetters(width)}; give that column a header or clear the cell.`,
          raw,
        };
        continue;
      }
      yield new HeaderRow(file, row, line, raw, texts, names, hasProtoName);
    }
  } finally {
    await rows.return(undefined);
    await close();
  }
}
