import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { commitFile, temporaryPathFor } from './atomic-file.js';
import { escapeFormula, isFormulaLeading } from './spreadsheet-safety.js';
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
  /** Rows written, by outcome. */
  readonly counts: Partial<Record<OutcomeRow['outcome'], number>> = {};
  rows = 0;

  constructor(path: string) {
    this.path = path;
    this.temporary = temporaryPathFor(path);
    this.fd = openSync(this.temporary, 'w');
    this.batch.push(stringify([OUTCOME_COLUMNS as unknown as string[]]));
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
    this.batch.push(stringify([cells.map(escapeFormula)]));
    if (this.batch.length >= BATCH) this.flush();
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    closeSync(this.fd);
    this.fd = undefined;
    commitFile(this.temporary, this.path);
  }

  private flush(): void {
    if (this.fd === undefined || this.batch.length === 0) return;
    writeSync(this.fd, this.batch.join(''));
    this.batch = [];
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
        file: unescapeFormula(cells.file),
        row: Number(cells.row) || 0,
        line: Number(cells.line) || 0,
        outcome: loaded ? 'unchanged' : (cells.outcome as OutcomeRow['outcome']),
        contactId: unescapeFormula(cells.contact_id),
        identity: unescapeFormula(cells.identity),
        reason: loaded ? reason : unescapeFormula(cells.reason),
      });
    }
  } finally {
    out.close();
  }
  return out.rows;
};

/** A cell as it was before escapeFormula (which the writer applies again). */
const unescapeFormula = (cell: string): string =>
  cell.startsWith("'") && isFormulaLeading(cell.slice(1)) ? cell.slice(1) : cell;
