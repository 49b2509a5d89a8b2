/**
 * The input of report.html: everything the page shows, already aggregated. The renderer never
 * sees a record: a 1,000,000-row run hands it counts, a few examples per issue code and column,
 * at most a few hundred progress samples and a bounded sample of changes, so the page stays small
 * and fast whatever the size of the run.
 *
 * Every string here may come from an untrusted input file (names, values, column names, file
 * names): the renderer escapes all of them. Callers pass them as they are, never pre-escaped.
 *
 * Two kinds: `run` (run and validate, dry or not) and `undo` (contact-import undo). Build a `run`
 * model from a RunReport with `runModel()` (run-model.ts); an undo builds its model directly.
 */

import type { Totals } from '../../core/types.js';
import type { RunReport } from '../run-report.js';
import type { ChangeRow } from '../../load/types.js';

export type { ChangeRow };

/** One progress sample: `t` is milliseconds since the run started; the rest are running totals. */
export interface ProgressSample {
  t: number;
  /** Records read so far. */
  read: number;
  /** Records settled on the target so far (created, updated or unchanged; restored or archived for undo). */
  loaded: number;
  /** Requests sent so far, retries included. */
  requests: number;
  /** Of those, the retries. */
  retries: number;
}

/** One issue row, as in issues.csv (the value already cut to 200 characters by issues.csv). */
export interface IssueExample {
  file: string;
  row: number;
  field: string;
  value: string;
  code: string;
  message: string;
}

export interface IssueCodeSummary {
  code: string;
  severity: 'error' | 'warning';
  count: number;
  /** A few of its rows (the first ones met); the page shows at most 3. */
  examples: IssueExample[];
}

export interface IssueFieldSummary {
  /** The input column (or JSON key) the issue is about; '' for whole-record issues. */
  field: string;
  count: number;
  examples: IssueExample[];
}

export interface IssuesModel {
  byCode: IssueCodeSummary[];
  byField: IssueFieldSummary[];
  /** issues.csv's file name beside report.html, linked relatively (e.g. `issues.csv`). */
  file: string;
}

export interface ChangesModel {
  /** Every change row of the run (the table shows `rows`, a bounded sample). */
  total: number;
  /** At most a few thousand rows; the page says when it shows fewer than `total`. */
  rows: ChangeRow[];
  /** changes.csv's file name beside report.html, when written. */
  file?: string;
}

export interface InputModel {
  path: string;
  format: string;
  encoding: string;
  delimiter: string | null;
  rows: number;
  /** Input columns the pipeline does not use, in file order (when known). */
  unusedColumns?: string[];
}

export interface RequestCounts {
  sent: number;
  retried: number;
  failed: number;
  /** `"METHOD /route/template"` -> counts, when the run kept them. */
  byEndpoint?: Record<string, { sent: number; retried: number; failed: number }>;
}

/** What report.json of either kind carries that the page shows the same way. */
export interface ReportHeader {
  runId: string;
  target: string;
  status: string;
  dryRun: boolean;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  exitCode: number;
  /** One sentence saying why the run ended with its exit code, when known. */
  exitReason?: string;
  error?: { code: string; message: string };
  requests: RequestCounts;
}

/** What both kinds share: the run's identity, status and requests, its progress and issues. */
export interface ReportModelBase extends ReportHeader {
  /** Progress over time; any length (the page downsamples to 500 points). */
  samples: ProgressSample[];
  /** Issue counts and examples; an undo lists its conflicts and what it could not undo here. */
  issues?: IssuesModel;
}

/** report.json's totals: `read` and the outcomes it must equal, plus warnings. */
export type RunTotalsModel = Totals;

export interface RunReportModel extends ReportModelBase {
  kind: 'run';
  pipeline: string;
  inputs: InputModel[];
  totals: RunTotalsModel;
  groups: RunReport['groups'];
  customFields: RunReport['customFields'];
  reminders: RunReport['reminders'];
  /** Set when the run reused this earlier run's outcome instead of reading its inputs. */
  inputsUnchangedSince?: string;
  /** Field-level previews (a dry run against a target): updated contacts, field by field. */
  changes?: ChangesModel;
  candidates?: CandidatesModel;
}

/** Duplicate candidates: the counts, and the best pairs as candidates.csv's rows. */
export interface CandidatesModel {
  likely: number;
  possible: number;
  clusters: number;
  blocksSkipped: number;
  /** Cells in candidates.csv's column order (candidates/csv.ts). */
  rows: string[][];
  file: string;
}

export interface UndoTotalsModel {
  read: number;
  restored: number;
  archived: number;
  conflicts: number;
  notUndone: number;
  failed: number;
}

export interface UndoReportModel extends ReportModelBase {
  kind: 'undo';
  /** The run id this undo takes back. */
  undoOf: string;
  totals: UndoTotalsModel;
  /** Scalar fields put back (old = the value the run wrote, new = the before-image restored). */
  changes?: ChangesModel;
}

export type ReportModel = RunReportModel | UndoReportModel;

/** The outcomes of a run, in the order of the invariant `read = rejected + ... + pending`. */
export const RUN_OUTCOMES = [
  'rejected',
  'duplicates',
  'merged',
  'created',
  'updated',
  'unchanged',
  'failed',
  'pending',
] as const satisfies readonly (keyof RunTotalsModel)[];

export const UNDO_OUTCOMES = [
  'restored',
  'archived',
  'conflicts',
  'notUndone',
  'failed',
] as const satisfies readonly (keyof UndoTotalsModel)[];
