/**
 * The types several stages share: an issue and its stage, a rejected record, the run's totals and
 * its issue counts. A stage's own shapes live in its folder (readers/, mapping/, extract/, load/ and
 * report/types.ts).
 */
import type { IssueCode } from './errors/codes.js';

export type Stage = 'read' | 'map' | 'normalize' | 'validate' | 'dedupe' | 'resolve' | 'load' | 'undo';

export type Severity = 'error' | 'warning';

/** A record that was not loaded, for its rejected file: its text as read, its row, and why (each error in plain words). */
export interface RejectedRecord {
  /**
   * The source text; absent for a record that was staged (records do not carry it): the run's
   * outputs read it back from the staging's side table by input and row (report/run-outputs.ts).
   */
  raw?: string;
  row: number;
  errors: string[];
}

/** One row of issues.csv. */
export interface Issue {
  file: string;
  row: number;
  /**
   * 1-based line of the file where the record starts (SourceRow.line); for a file-level issue
   * (row 0), the header's line, or 0 when there is none (written empty).
   */
  line: number;
  severity: Severity;
  stage: Stage;
  field: string;
  value: string;
  code: IssueCode;
  message: string;
}

/** How many records ended in each outcome; every record read ends in exactly one (plus warnings). */
export interface Totals {
  read: number;
  rejected: number;
  duplicates: number;
  /** Merged into another record's contact as the same person (`--merge-candidates`). */
  merged: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Sent and not loaded: the target refused the record, or its request exhausted every retry. */
  failed: number;
  /** Read but not sent: the run was interrupted or stopped first. The same command sends them. */
  pending: number;
  warnings: number;
}

/** One issue code's count in a run, with its first example. */
export interface IssueCount {
  code: IssueCode;
  severity: Issue['severity'];
  count: number;
  example: Issue;
  /** The first few issues of the code, `example` first (absent in snapshots of older runs). */
  examples?: Issue[];
}
