import { parse } from 'csv-parse/sync';
import { REJECT_COLUMNS } from '../core/reject-columns.js';
import type { RejectedRecord } from '../core/types.js';
import type { InputFormat } from '../readers/types.js';
import { AtomicWriteStream } from './atomic-file.js';
import { csvRecordOf, type CsvRecordOf } from './csv-record.js';
import { needsFormulaGuard, removeFormulaGuard } from './spreadsheet-safety.js';

export interface RejectedFileOptions {
  path: string;
  /** The input's format; a vCard's rejects are its cards, verbatim. */
  format: InputFormat;
  /** CSV/TSV: the source's header line, verbatim. */
  rawHeader?: string;
  delimiter?: string | null;
  /** Told once when a write fails (AtomicWriteStream): the run stops rather than read on. */
  onFailure?: (error: unknown) => void;
}

const [ROW_COLUMN, ERROR_COLUMN] = REJECT_COLUMNS;

/**
 * Writes rejected and failed source records so a user can fix them and run the file again: the
 * original header and each record as it was read, plus two columns (`import_row`, the record's
 * row, and `import_error`, its errors `; `-joined) that a pipeline ignores on input. JSON and
 * NDJSON objects gain the same two keys. A rejected file run again (its header already has the
 * columns) gets them filled anew rather than twice. CSV cells a spreadsheet would run as a
 * formula are escaped (spreadsheet safety wins over byte-for-byte fidelity; see docs/report.md).
 */
export class RejectedFile {
  readonly path: string;
  private readonly options: RejectedFileOptions;
  private readonly delimiter: string;
  /** A tab or carriage return is quoted too, so that a spreadsheet does not take it for a separator. */
  private readonly record: CsvRecordOf;
  /** Where the records go until close() renames it to `path`; whole or not at all. */
  private out: AtomicWriteStream | undefined;
  private count = 0;
  /** Where the header already has import_row / import_error (a rejected file run again). */
  private reasonAt: { row: number; error: number } | undefined;

  constructor(options: RejectedFileOptions) {
    this.options = options;
    this.path = options.path;
    this.delimiter = options.delimiter ?? (options.format === 'tsv' ? '\t' : ',');
    this.record = csvRecordOf({ delimiter: this.delimiter, quoteAlso: /[\t\r]/ });
  }

  get records(): number {
    return this.count;
  }

  add(record: RejectedRecord & { raw: string }): void {
    const out = this.open();
    const error = record.errors.join('; ') || 'not loaded';
    switch (this.options.format) {
      case 'json':
        out.write(`${this.count === 0 ? '' : ',\n'}${withReason(record.raw, record.row, error)}`);
        break;
      case 'ndjson':
        out.write(`${withReason(record.raw, record.row, error)}\n`);
        break;
      case 'csv':
      case 'tsv':
        out.write(`${this.csvRecord(record.raw, record.row, error)}\n`);
        break;
      default:
        // A card's text ends with its END:VCARD line break, except a last card cut short by the file's end.
        out.write(record.raw.endsWith('\n') ? record.raw : `${record.raw}\r\n`);
    }
    this.count += 1;
  }

  /** True once it is committed whole under `path` (a write that failed leaves no file). */
  get written(): boolean {
    return this.committed;
  }

  private committed = false;

  private open(): AtomicWriteStream {
    if (this.out) return this.out;
    this.out = new AtomicWriteStream(this.path, this.options.onFailure);
    const { format, rawHeader } = this.options;
    if (format === 'json') this.out.write('[\n');
    else if ((format === 'csv' || format === 'tsv') && rawHeader !== undefined)
      this.out.write(`${this.csvHeader(rawHeader)}\n`);
    return this.out;
  }

  private csvHeader(rawHeader: string): string {
    const cells = this.cellsOf(rawHeader);
    const row = cells?.indexOf(ROW_COLUMN) ?? -1;
    const error = cells?.indexOf(ERROR_COLUMN) ?? -1;
    if (row >= 0 && error >= 0) {
      // A rejected file run again: its cells carry our guard already; guarded once, not twice.
      this.reasonAt = { row, error };
      return this.line(cells!.map(removeFormulaGuard));
    }
    return `${this.safeCsv(rawHeader)}${this.delimiter}${this.line(REJECT_COLUMNS)}`;
  }

  private csvRecord(raw: string, row: number, error: string): string {
    const reason = [String(row), error];
    const at = this.reasonAt;
    const cells = at ? this.cellsOf(raw) : undefined;
    if (!at || !cells) return `${this.safeCsv(raw)}${this.delimiter}${this.line(reason)}`;
    const plain = Array.from(cells, (cell) => removeFormulaGuard(cell ?? ''));
    plain[at.row] = reason[0]!;
    plain[at.error] = reason[1]!;
    return this.line(plain);
  }

  /** The cells of one CSV record, or undefined when its text does not parse as one. */
  private cellsOf(raw: string): string[] | undefined {
    try {
      const records = parse(raw, {
        delimiter: this.delimiter,
        relax_quotes: true,
        relax_column_count: true,
      }) as string[][];
      return records.length === 1 ? records[0] : undefined;
    } catch {
      return undefined;
    }
  }

  /** Cells as one CSV line, formula-escaped. */
  private line(cells: readonly string[]): string {
    return this.record(cells).slice(0, -1);
  }

  /** A record as read, unless a cell would run as a formula: then the record with that cell escaped. */
  private safeCsv(raw: string): string {
    // Cheap test first: only a record that could hold a formula-leading cell is parsed again.
    if (!/[=+\-@\t\r]/.test(raw)) return raw;
    const cells = this.cellsOf(raw);
    // Unparseable raw text (a broken record): kept as a single escaped cell.
    if (!cells) return this.line([raw]);
    if (!cells.some(needsFormulaGuard)) return raw;
    return this.line(cells);
  }

  /** Renames the finished file into place; throws output_error (and leaves nothing) when a write failed. */
  async close(): Promise<void> {
    const out = this.out;
    if (!out) return;
    this.out = undefined;
    await out.commit(this.options.format === 'json' ? '\n]\n' : '');
    this.committed = true;
  }

  /** Drops the file: nothing replaces `path`. */
  discard(): void {
    this.out?.discard();
    this.out = undefined;
  }
}

/**
 * A JSON record with `import_row` and `import_error` added (replaced when it has them). A record
 * that is not an object (or not JSON at all) is kept under `import_original`.
 */
const withReason = (raw: string, row: number, error: string): string => {
  let value: unknown;
  try {
    value = raw === '' ? undefined : JSON.parse(raw);
  } catch {
    value = raw;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return JSON.stringify(Object.assign(value, { [ROW_COLUMN]: row, [ERROR_COLUMN]: error }));
  }
  return JSON.stringify({
    [ROW_COLUMN]: row,
    [ERROR_COLUMN]: error,
    ...(value === undefined ? {} : { import_original: value }),
  });
};
