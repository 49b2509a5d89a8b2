/**
 * One record of a CSV file we write: each cell formula-guarded (spreadsheet-safety.ts: every CSV
 * the tool writes is), the cells joined by the delimiter, a cell quoted when it holds the
 * delimiter, a double quote or a line break (or matches `quoteAlso`), quotes inside doubled, and
 * `\n` after it. That is what csv-stringify writes of the guarded cells with the same options, byte
 * for byte (test/unit/report/csv-record.test.ts compares the two over random cells). It is written here
 * because csv-stringify, made for every option and for streams, allocates several objects per cell
 * and checks its options per call: for the hundreds of thousands of rows of an outcomes.csv or a
 * candidates.csv that was a measurable part of a whole run (bench/README.md, "CSV records").
 * Reading stays with csv-parse.
 */
import { escapeFormula } from './spreadsheet-safety.js';

export interface CsvDialect {
  /** One character; a comma unless given. */
  delimiter?: string;
  /** Cells this matches are quoted too (csv-stringify's `quoted_match`). */
  quoteAlso?: RegExp;
}

/** Cells to one formula-guarded record of the dialect, `\n` included. */
export type CsvRecordOf = (cells: readonly string[]) => string;

const QUOTE = '"';
const TWO_QUOTES = '""';
const SPECIAL_CHARACTERS = /[\\\]^-]/g;

export const csvRecordOf = ({ delimiter = ',', quoteAlso }: CsvDialect = {}): CsvRecordOf => {
  if (delimiter.length !== 1)
    throw new Error(`a CSV delimiter is one character, got ${JSON.stringify(delimiter)}`);
  const needsQuotes = new RegExp(`[${delimiter.replace(SPECIAL_CHARACTERS, '\\$&')}"\\n\\r]`);
  // `search` rather than `test`: a global or sticky pattern keeps no position from one cell to the next.
  const quoted = (cell: string): boolean =>
    needsQuotes.test(cell) || (quoteAlso !== undefined && cell.search(quoteAlso) !== -1);
  const empty = quoted('') ? TWO_QUOTES : '';
  return (cells) => {
    let record = '';
    for (let i = 0; i < cells.length; i++) {
      const cell = escapeFormula(cells[i]!);
      if (i > 0) record += delimiter;
      if (cell === '') record += empty;
      else record += quoted(cell) ? QUOTE + cell.replaceAll(QUOTE, TWO_QUOTES) + QUOTE : cell;
    }
    return `${record}\n`;
  };
};

/** A record of the comma-separated files we write (outcomes.csv, issues.csv, changes.csv, candidates.csv). */
export const csvRecord: CsvRecordOf = csvRecordOf();
