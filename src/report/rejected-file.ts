import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { InputFormat } from '../core/types.js';
import { commitFile, temporaryPathFor } from './atomic-file.js';
import { isFormulaLeading, escapeFormula } from './spreadsheet-safety.js';

export interface RejectedFileOptions {
  path: string;
  format: InputFormat;
  /** CSV/TSV: the source's header line, verbatim. */
  rawHeader?: string;
  delimiter?: string | null;
}

/**
 * Writes rejected and failed source records so a user can fix them and run the file again: the
 * original header, then each record as it was read. The one change: a CSV record with a
 * formula-leading cell is written again with that cell escaped (spreadsheet safety wins over
 * byte-for-byte fidelity; see docs/report.md).
 */
export class RejectedFile {
  readonly path: string;
  private readonly options: RejectedFileOptions;
  private out: WriteStream | undefined;
  /** Where the records go until close() renames it to `path`. */
  private temporary: string | undefined;
  private count = 0;

  constructor(options: RejectedFileOptions) {
    this.options = options;
    this.path = options.path;
  }

  get records(): number {
    return this.count;
  }

  add(raw: string): void {
    const out = this.open();
    const { format } = this.options;
    if (format === 'json') out.write(`${this.count === 0 ? '' : ',\n'}${raw}`);
    else if (format === 'ndjson') out.write(`${raw}\n`);
    // A card's text ends with its END:VCARD line break, except a last card cut short by the file's end.
    else if (format === 'vcard') out.write(raw.endsWith('\n') ? raw : `${raw}\r\n`);
    else out.write(`${this.safeCsv(raw)}\n`);
    this.count += 1;
  }

  private open(): WriteStream {
    if (this.out) return this.out;
    this.temporary = temporaryPathFor(this.path);
    this.out = createWriteStream(this.temporary, { encoding: 'utf8' });
    const { format, rawHeader } = this.options;
    if (format === 'json') this.out.write('[\n');
    else if ((format === 'csv' || format === 'tsv') && rawHeader !== undefined)
      this.out.write(`${this.safeCsv(rawHeader)}\n`);
    return this.out;
  }

  private safeCsv(raw: string): string {
    const delimiter = this.options.delimiter ?? (this.options.format === 'tsv' ? '\t' : ',');
    // Cheap test first: only a record that could hold a formula-leading cell is parsed again.
    if (!/[=+\-@\t\r]/.test(raw)) return raw;
    let cells: string[][];
    try {
      cells = parse(raw, { delimiter, relax_quotes: true, relax_column_count: true }) as string[][];
    } catch {
      // Unparseable raw text (a ragged or broken record): keep it as a single escaped cell.
      return stringify([[escapeFormula(raw)]], { delimiter }).replace(/\n$/, '');
    }
    const record = cells[0] ?? [];
    if (!record.some(isFormulaLeading)) return raw;
    return stringify([record.map(escapeFormula)], { delimiter, quoted_match: /[\t\r]/ }).replace(/\n$/, '');
  }

  async close(): Promise<void> {
    if (!this.out) return;
    if (this.options.format === 'json') this.out.write('\n]\n');
    this.out.end();
    await once(this.out, 'finish');
    if (this.temporary) commitFile(this.temporary, this.path);
    this.temporary = undefined;
  }
}
