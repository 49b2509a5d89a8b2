import { closeSync, createReadStream, openSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse';
import { csvRecord } from './csv-record.js';
import { commitFile, discardFile, outputError, temporaryPathFor } from './atomic-file.js';
import { removeFormulaGuard } from './spreadsheet-safety.js';
import type { OutcomeRow, OutcomeSink } from '../core/outcome-row.js';

export const OUTCOME_COLUMNS = [
  'file',
  'row',
  'line',
  'outcome',
  'contact_id',
  'identity',
  'reason',
] as const;

export type { OutcomeRow, OutcomeSink, RecordOutcomeName, UndoOutcomeName } from '../core/outcome-row.js';

/** Rows buffered before a write: a few hundred rows per system call. */
const BATCH = 512;

/** An identity key as a person reads it: its parts (name + company keys) joined by ` | `. */
export const identityText = (key: string): string => key.replaceAll('\u001f', ' | ');

/**
 * outcomes.csv: one row per record read (an undo: per contact it took back), in the order the
 * run settled them. Streamed: rows go to disk in batches under a temporary name, renamed at close;
 * nothing but the count stays in memory, whatever the run's size. Formula-safe like every CSV.
 */
export class OutcomesFile implements OutcomeSink {
  readonly path: string;
  private readonly temporary: string;
  private fd: number | undefined;
  private batch: string[] = [];
  /** The first write that failed (a full disk, a file-size limit): close() throws it. */
  private failure: unknown;
  /** Rows written, by outcome. */
  readonly counts: Partial<Record<OutcomeRow['outcome'], number>> = {};
  rows = 0;

  /** `onFailure`: told once, with the output_error, when a write fails (the run stops there). */
  constructor(
    path: string,
    private readonly onFailure?: (error: unknown) => void,
  ) {
    this.path = path;
    this.temporary = temporaryPathFor(path);
    this.fd = openSync(this.temporary, 'w');
    this.batch.push(csvRecord(OUTCOME_COLUMNS));
  }

  add(row: OutcomeRow): void {
    if (this.fd === undefined) return;
    this.rows += 1;
    this.counts[row.outcome] = (this.counts[row.outcome] ?? 0) + 1;
    const cells = [
      row.file,
      row.row > 0 ? String(row.row) : '',
      row.line > 0 ? String(row.line) : '',
      row.outcome,
      row.contactId ?? '',
      identityText(row.identity ?? ''),
      row.reason ?? '',
    ];
    this.batch.push(csvRecord(cells));
    if (this.batch.length >= BATCH) this.flush();
  }

  /** Commits the file whole; a write that failed earlier is thrown here, with nothing left behind. */
  close(): void {
    if (this.fd !== undefined) {
      this.flush();
      if (this.fd !== undefined) {
        closeSync(this.fd);
        this.fd = undefined;
        commitFile(this.temporary, this.path);
      }
    }
    if (this.failure !== undefined) throw outputError(this.path, this.failure);
  }

  // A record's outcome never throws: a failed write stops the file, and close() reports it.
  private flush(): void {
    if (this.fd === undefined || this.batch.length === 0) return;
    try {
      // writeFileSync writes all of it or throws: a write cut short at a file-size limit is no success.
      writeFileSync(this.fd, this.batch.join(''));
      this.batch = [];
    } catch (error) {
      this.failure = error;
      this.batch = [];
      closeSync(this.fd);
      this.fd = undefined;
      discardFile(this.temporary);
      this.onFailure?.(outputError(this.path, error));
    }
  }
}

/**
 * A run that reuses an earlier run's outcome (inputs unchanged): that run's outcomes.csv, each
 * record loaded then now `unchanged`, streamed row by row into this run's.
 */
export const carryOutcomes = async (from: string, to: string, reason: string): Promise<number> => {
  const out = new OutcomesFile(to);
  try {
    const rows = createReadStream(from).pipe(parse({ columns: true, bom: true }));
    for await (const cells of rows as AsyncIterable<Record<(typeof OUTCOME_COLUMNS)[number], string>>) {
      const loaded =
        cells.outcome === 'created' || cells.outcome === 'updated' || cells.outcome === 'unchanged';
      out.add({
        file: removeFormulaGuard(cells.file),
        row: Number(cells.row) || 0,
        line: Number(cells.line) || 0,
        outcome: loaded ? 'unchanged' : (cells.outcome as OutcomeRow['outcome']),
        contactId: removeFormulaGuard(cells.contact_id),
        identity: removeFormulaGuard(cells.identity),
        reason: loaded ? reason : removeFormulaGuard(cells.reason),
      });
    }
  } finally {
    out.close();
  }
  return out.rows;
};
