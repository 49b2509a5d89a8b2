import type { Readable } from 'node:stream';
import { ImportError } from '../core/errors/index.js';
import { showCell, type RawCell } from './xlsx-cells.js';
import type { WorkbookModel } from './xlsx-parts.js';
import { createXmlParser, feedXml, type XmlTag } from './xml-stream.js';
import { MAX_RECORD_CHARS, MAX_SHEET_COLUMNS } from './limits.js';

/** A cell that shows something; empty cells are left out. */
export interface SheetCell {
  /** 1-based column (A = 1). */
  column: number;
  text: string;
}

/** One row of a worksheet as the sheet shows it. */
export interface SheetRow {
  /** The sheet's row number, 1-based, as a spreadsheet program shows it. */
  line: number;
  /** Cells that show something, by ascending column. */
  cells: SheetCell[];
}

/** `AB12` -> 28; the column letters of an A1 reference. */
export const columnOfRef = (ref: string): number => {
  let column = 0;
  for (let index = 0; index < ref.length; index++) {
    const code = ref.charCodeAt(index) & ~0x20; // upper case
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column;
};

/** `28` -> `AB`. */
export const columnLetters = (column: number): string => {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
};

const rowOfRef = (ref: string): number => Number(ref.replace(/[^0-9]/g, ''));

export interface ReadSheetOptions {
  file: string;
  signal?: AbortSignal;
}

/**
 * The rows of a worksheet from its XML events: `open`, `text` and `close` are the parser's
 * handlers (arrow fields: the parser calls them unbound), rows gather in `ready` as they end.
 */
class SheetRowCollector {
  /** Rows whose end tag went by, for the reader to take. */
  readonly ready: SheetRow[] = [];
  /** The row being read (the last one once it ended): where an error points. */
  row: SheetRow = { line: 0, cells: [] };
  /** True once the sheet's data ended: nothing after it is a row. */
  done = false;
  private column = 0;
  private cell: RawCell = { type: undefined, style: 0, value: '', inline: '' };
  private capture: 'value' | 'inline' | undefined;
  private inInline = false;
  private phonetic = 0;

  constructor(private readonly workbook: WorkbookModel) {}

  readonly open = (tag: XmlTag, name: string): void => {
    switch (name) {
      // A sheet's own attributes are never prefixed: read directly (this runs for every cell).
      case 'row': {
        const r = tag.attributes['r'];
        this.row = { line: r ? Number(r) : this.row.line + 1, cells: [] };
        this.column = 0;
        break;
      }
      case 'c': {
        const r = tag.attributes['r'];
        this.column = r ? columnOfRef(r) : this.column + 1;
        // A reference past the last column a sheet has would size every row to it (memory).
        if (this.column > MAX_SHEET_COLUMNS)
          throw new Error(`a cell ${r ?? ''} lies right of column XFD, the last a sheet can have`);
        const style = tag.attributes['s'];
        this.cell = { type: tag.attributes['t'], style: style ? Number(style) : 0, value: '', inline: '' };
        break;
      }
      case 'v':
        this.capture = 'value';
        break;
      case 'is':
        this.inInline = true;
        break;
      case 'rPh':
        this.phonetic++;
        break;
      case 't':
        if (this.inInline && this.phonetic === 0) this.capture = 'inline';
        break;
    }
  };

  readonly text = (text: string): void => {
    if (this.capture === 'value') this.cell.value += text;
    else if (this.capture === 'inline') this.cell.inline += text;
    else return;
    if (this.cell.value.length + this.cell.inline.length > MAX_RECORD_CHARS)
      throw new Error(`a cell holds more than ${MAX_RECORD_CHARS} characters`);
  };

  readonly close = (name: string): void => {
    switch (name) {
      case 'v':
      case 't':
        this.capture = undefined;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c': {
        const text = showCell(this.cell, this.workbook);
        if (text === '') break;
        // Cells that repeat a column could grow a row without end.
        if (this.row.cells.length === MAX_SHEET_COLUMNS)
          throw new Error(`a row holds more than ${MAX_SHEET_COLUMNS} cells, the columns a sheet can have`);
        this.row.cells.push({ column: this.column, text });
        break;
      }
      case 'row':
        this.row.cells.sort((a, b) => a.column - b.column);
        this.ready.push(this.row);
        break;
      case 'sheetData':
        this.done = true;
        break;
    }
  };
}

/**
 * Streams a worksheet part's rows, each cell shown as the sheet shows it. Rows and cells without
 * a reference follow the one before (writers may leave `r` out). Reading stops at the end of the
 * sheet's data; what follows (merges, print settings) is not read.
 */
export async function* readSheetRows(
  open: () => Promise<Readable>,
  workbook: WorkbookModel,
  options: ReadSheetOptions,
): AsyncGenerator<SheetRow> {
  // Opened here, not by the caller: a generator returned before it starts leaves no stream open.
  const stream = await open();
  const rows = new SheetRowCollector(workbook);
  const parser = createXmlParser(rows);
  try {
    for await (const _ of feedXml(stream, parser)) {
      void _;
      if (options.signal?.aborted) {
        throw new ImportError('interrupted', `Reading ${options.file} was stopped before its end.`, {
          file: options.file,
        });
      }
      for (const next of rows.ready.splice(0)) yield next;
      if (rows.done) return;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      'input_unreadable',
      `${options.file}: its sheet cannot be read after row ${rows.row.line} (${(error as Error).message}); the workbook may be damaged: open it in a spreadsheet program and save it again.`,
      { file: options.file, line: rows.row.line },
      { cause: error },
    );
  }
}

/** A rectangle of cells, 1-based and inclusive, as `B1:C1` names it. */
export interface CellRange {
  ref: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const parseRange = (ref: string): CellRange | undefined => {
  const [from, to = from] = ref.split(':');
  if (!from) return undefined;
  const range = {
    ref,
    top: rowOfRef(from),
    left: columnOfRef(from.replace(/\$/g, '')),
    bottom: rowOfRef(to!),
    right: columnOfRef(to!.replace(/\$/g, '')),
  };
  const valid = Object.values(range).every((v) => typeof v === 'string' || (Number.isInteger(v) && v > 0));
  return valid && range.right <= MAX_SHEET_COLUMNS ? range : undefined;
};

const SHEET_DATA_END = Buffer.from('sheetData>');
/** What follows the sheet's data (merges, formatting rules) is small; more is not looked at. */
const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/** `</sheetData>` or `</x:sheetData>` ends at `at + 10`; the opening tag does not count. */
const isClosingTag = (bytes: Buffer, at: number): boolean => {
  let index = at - 1;
  if (bytes[index] === 0x3a /* : */) {
    index--;
    while (index >= 0 && bytes[index] !== 0x2f /* / */ && bytes[index] !== 0x3c /* < */) index--;
  }
  return bytes[index] === 0x2f && bytes[index - 1] === 0x3c;
};

/**
 * The merged cells of a worksheet. They are written after all its rows, so the part is inflated
 * once more and only the bytes after the rows are parsed: the header's merges are known before
 * its first row is named.
 */
export async function readMergedCells(stream: Readable, signal?: AbortSignal): Promise<CellRange[]> {
  let carry: Buffer = Buffer.alloc(0);
  const tail: Buffer[] = [];
  let tailBytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal?.aborted) break;
      if (tailBytes > 0) {
        tail.push(chunk);
        tailBytes += chunk.length;
        if (tailBytes > MAX_TAIL_BYTES) break;
        continue;
      }
      const window = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      let at = window.indexOf(SHEET_DATA_END);
      while (at !== -1 && !isClosingTag(window, at)) at = window.indexOf(SHEET_DATA_END, at + 1);
      if (at !== -1) {
        tail.push(window.subarray(at));
        tailBytes = window.length - at;
      } else carry = window.subarray(Math.max(0, window.length - 64));
    }
  } finally {
    stream.destroy();
  }
  const text = Buffer.concat(tail).toString('utf8');
  const ranges: CellRange[] = [];
  for (const match of text.matchAll(/<(?:[\w.-]+:)?mergeCell\b[^>]*?\bref="([^"]+)"/g)) {
    const range = parseRange(match[1]!);
    if (range) ranges.push(range);
  }
  return ranges;
}
