import type { IssueCode, RunCode } from '../core/errors/index.js';
import type { Totals } from '../core/types.js';
import type { InputInfo } from '../readers/types.js';

/** Attempts sent (retries included), attempts that were retries, calls that failed after retries. */
export interface RequestCounts {
  sent: number;
  retried: number;
  failed: number;
}

export type RunStatus = 'completed' | 'interrupted' | 'aborted';

export interface IssueSummary {
  byCode: { code: IssueCode; severity: 'error' | 'warning'; count: number }[];
  byField: { field: string; count: number }[];
}

/** report.json, exactly the contract of docs/design.md "Outputs of a run" (plus `error` when aborted). */
export interface RunReport {
  runId: string;
  pipeline: string;
  dryRun: boolean;
  target: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  inputs: InputInfo[];
  totals: Totals;
  groups: { created: number; existing: number };
  customFields: { created: number; existing: number };
  reminders: { created: number; updated: number };
  requests: RequestCounts & {
    /** By `"METHOD /route/template"` as docs/api-reference.md writes the route, ids as `{id}`. */
    byEndpoint: Record<string, RequestCounts>;
  };
  exitCode: number;
  /**
   * Set when the run read nothing: its inputs were byte-identical to those of this earlier run (same
   * pipeline, settings and tool version, nothing run in between), so its outcome was reused.
   */
  inputsUnchangedSince?: string;
  /**
   * Issue rows by code (with severity) and by input column ('' for whole-record issues), most
   * frequent first: counts only, the rows themselves are issues.csv.
   */
  issues?: IssueSummary;
  /** The run continued an interrupted one: which, what the ledger held, what was left. */
  continues?: { runId: string; loaded: number; toGo: number };
  /** A stop ended reading early: the last row read of the input it stopped in; the rest was not read. */
  readingStopped?: { file: string; row: number };
  /**
   * Records whose resolution searched the target, by why: `unknown` the ledger did not know them,
   * `changed` it knew them and their write changed (their current values were looked up).
   */
  searched?: { unknown: number; changed: number };
  /** `run --sync NAME`: what the run did (a dry run: would do) to the scope's contacts. */
  sync?: {
    scope: string;
    archived: number;
    unarchived: number;
    valuesRemoved: number;
    fieldsCleared: number;
  };
  /**
   * Pairs of records likely one person under another e-mail (candidates.csv): by band, clusters
   * linked by `likely` pairs, and blocks too large to compare whole. Absent with `--candidates off`.
   */
  candidates?: { likely: number; possible: number; clusters: number; blocksSkipped: number };
  /** One sentence: why the run ended with its exit code (the summary's `Exit N:` line). */
  exitReason?: string;
  /** The run-level problem that stopped the run, when `status` is `aborted`. */
  error?: { code: RunCode; message: string; context?: Record<string, unknown> };
}

export const emptyTotals = (): Totals => ({
  read: 0,
  rejected: 0,
  duplicates: 0,
  merged: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  failed: 0,
  pending: 0,
  warnings: 0,
});

/** The invariant every report keeps, whatever its status: each record read ends in exactly one outcome. */
export const outcomesTotal = (t: Totals): number =>
  t.rejected + t.duplicates + t.merged + t.created + t.updated + t.unchanged + t.failed + t.pending;
