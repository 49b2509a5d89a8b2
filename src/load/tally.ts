import type { Issue, LoadCounts, RejectedRecord } from '../core/types.js';
import type { StagedPlace } from '../package/staging.js';
import { recordNotLoaded } from '../core/consequence.js';
import { tooLargeIssue } from '../normalize/record-size.js';
import type { Planned } from './resolve.js';

/** Where the load stage reports a record it could not load: its issue, and the record for its rejected file. */
export interface FailedRecordSink {
  issues: { add(issue: Issue): void };
  reject(input: number, record: RejectedRecord): void;
}

export type Loaded = 'created' | 'updated' | 'unchanged';

/**
 * Every staged record's outcome, counted once: the run's totals, its progress, and for a record
 * not loaded its issue and its rejected row. A record the run did not send is `pending` (in no
 * issue, no rejected file); one sent and refused, or out of retries, is `failed`.
 */
export class LoadTally {
  private done = 0;

  constructor(
    private readonly totals: LoadCounts,
    private readonly outputs: FailedRecordSink,
    /** Records to settle: it grows while the run loads as it reads. */
    private readonly total: () => number,
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  settleCount(outcome: Loaded, count: number): void {
    this.totals[outcome] += count;
    this.done += count;
    this.onProgress?.(this.done, this.total());
  }

  settle(outcome: Loaded, items: readonly Planned[]): void {
    this.settleCount(outcome, items.length);
  }

  /** Records never sent (the run stopped first). */
  pending(count: number): void {
    this.totals.pending += count;
  }

  /** Records of a chunk that never got an outcome: not sent, so pending. */
  pendingAll(items: readonly Planned[]): void {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'pending';
      this.totals.pending += 1;
    }
  }

  /** The chunk's request was sent and failed for good (retries exhausted, a refusal): failed. */
  failAll(items: readonly Planned[], error: unknown): void {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'failed';
      this.failRecord(planned.record, 'load_failed', sentButFailed(error));
    }
  }

  failRecord(record: StagedPlace, code: Issue['code'], why: string): void {
    const message = recordNotLoaded(why);
    this.totals.failed += 1;
    this.done += 1;
    this.outputs.issues.add({
      file: record.file,
      row: record.row,
      line: record.line,
      severity: 'error',
      stage: 'load',
      field: '',
      value: '',
      code,
      message,
    });
    // Its source text is read back from the staging's side table (RunOutputs.reject).
    this.outputs.reject(record.input, { row: record.row, errors: [message] });
  }

  /** Normalization rejects what cannot fit (record-size.ts); this catches the rest (longer ids). */
  rejectTooLarge(planned: Planned, maxBodyBytes: number): void {
    planned.outcome = 'rejected';
    this.totals.rejected += 1;
    this.done += 1;
    const issue = tooLargeIssue(planned.record, planned.json.length, maxBodyBytes);
    this.outputs.issues.add(issue);
    const { input, row } = planned.record;
    this.outputs.reject(input, { row, errors: [issue.message] });
  }
}

const sentButFailed = (error: unknown): string =>
  `${error instanceof Error ? error.message : String(error)}; the same command sends it again`;
