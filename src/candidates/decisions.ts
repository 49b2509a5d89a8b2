/**
 * A reviewed candidates.csv (`--merge-candidates FILE`): the pairs a person marked `merge` or
 * `keep` in its `decision` column. Checked at the boundary, before anything is read or sent: the
 * header must be candidates.csv's, each decision one of the words; which rows are pairs of this
 * run is checked once the run has found its own (merge-plan.ts).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { ImportError } from '../core/errors/index.js';
import { removeFormulaGuard } from '../core/spreadsheet-safety.js';
import { CANDIDATE_COLUMNS } from './csv.js';

export type Decision = 'merge' | 'keep';

/** One decided row: the pair as candidates.csv names it, and where it is in the reviewed file. */
export interface DecidedPair {
  /** 1-based data row of the reviewed file (its header is line 1). */
  row: number;
  decision: Decision;
  aFile: string;
  aRow: number;
  /** Empty when B is a target contact. */
  bFile: string;
  bRow: number;
  bContactId: string;
}

/** Decisions read as written, case and spaces aside; an empty cell is a pair nobody decided. */
const DECISIONS: Record<string, Decision | undefined> = { merge: 'merge', keep: 'keep', '': undefined };

const invalid = (file: string, message: string, context: Record<string, unknown> = {}): ImportError =>
  new ImportError('merge_candidates_invalid', `${file}: ${message}`, { file, ...context });

/** The decided rows of a reviewed candidates.csv; undecided rows are left out. */
export const readDecisions = (file: string): DecidedPair[] => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    throw invalid(file, `cannot read the reviewed candidates.csv (${reason})`);
  }
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/u, ''), { relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw invalid(file, `not a CSV file: ${(error as Error).message}`);
  }
  const header = (records[0] ?? []).map((cell) => cell.trim());
  const missing = CANDIDATE_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw invalid(
      file,
      `row 0 (header): field ${missing[0]} is missing; expected candidates.csv's header (${CANDIDATE_COLUMNS.join(',')})`,
      { row: 0, field: missing[0] },
    );
  }
  const at = Object.fromEntries(
    CANDIDATE_COLUMNS.map((column) => [column, header.indexOf(column)]),
  ) as Record<(typeof CANDIDATE_COLUMNS)[number], number>;
  const decided: DecidedPair[] = [];
  records.slice(1).forEach((cells, index) => {
    const row = index + 1;
    const cell = (column: (typeof CANDIDATE_COLUMNS)[number]) =>
      removeFormulaGuard(cells[at[column]] ?? '').trim();
    const written = cell('decision');
    const decision = DECISIONS[written.toLowerCase()];
    if (decision === undefined) {
      if (written === '') return;
      throw invalid(file, `row ${row}: field decision is "${written}"; expected merge, keep or empty`, {
        row,
        field: 'decision',
      });
    }
    const number = (column: 'a_row' | 'b_row', required: boolean): number => {
      const value = cell(column);
      if (value === '' && !required) return 0;
      if (!/^[1-9]\d*$/u.test(value)) {
        throw invalid(file, `row ${row}: field ${column} is "${value}"; expected a row number`, {
          row,
          field: column,
        });
      }
      return Number(value);
    };
    const bContactId = cell('b_contact_id');
    decided.push({
      row,
      decision,
      aFile: cell('a_file'),
      aRow: number('a_row', true),
      bFile: cell('b_file'),
      bRow: number('b_row', bContactId === ''),
      bContactId,
    });
  });
  return decided;
};
