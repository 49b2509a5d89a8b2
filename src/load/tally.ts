import type { Issue, RejectedRecord } from '../core/types.js';
import type { LoadCounts } from './types.js';
import type { StagedPlace } from '../package/staging.js';
import { recordNotLoaded } from '../core/consequence.js';
import { tooLargeIssue } from '../normalize/record-size.js';
import type { OutcomeRow, OutcomeSink } from '../core/outcome-row.js';
import type { Planned } from './resolve.js';

/**
 * Where the load stage reports its records: a record it could not load (its issue, and the record
 * for its rejected file), and every record's outcome (outcomes.csv) when collected.
 */
export interface FailedRecordSink {
  issues: { add(issue: Issue): void };
  reject(input: number, record: RejectedRecord): void;
  outcomes?: OutcomeSink;
}

export type Loaded = 'created' | 'updated' | 'unchanged';

/** A dry run says what it would do: `would_create`, `would_update`; unchanged is unchanged. */
const shownAs = (outcome: Loaded, dryRun: boolean): OutcomeRow['outcome'] =>
  dryRun && outcome !== 'unchanged' ? `would_${outcome === 'created' ? 'create' : 'update'}` : outcome;

const UNCHANGED_REASON = 'nothing to change: the contact holds every value of the record';

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
    private readonly dryRun = false,
  ) {}

  /** Records settled without a plan (a dry run with nothing to compare): each would be created. */
  settlePlaces(outcome: Loaded, places: readonly StagedPlace[]): void {
    this.totals[outcome] += places.length;
    this.done += places.length;
    for (const place of places) this.note(place, shownAs(outcome, this.dryRun));
    this.onProgress?.(this.done, this.total());
  }

  settle(outcome: Loaded, items: readonly Planned[]): void {
    this.done += items.length;
    const shown = shownAs(outcome, this.dryRun);
    for (const planned of items) {
      // A record merged into a target contact taken for the same person: `merged`, not `updated`.
      if (planned.mergedWith) {
        this.totals.merged += 1;
        const why = `same person as contact ${planned.mergedWith.contactId} (candidates.csv, score ${planned.mergedWith.score.toFixed(3)}); merged into it`;
        this.note(planned.record, 'merged', planned.contactId, why);
        continue;
      }
      this.totals[outcome] += 1;
      const reason = outcome === 'unchanged' ? UNCHANGED_REASON : undefined;
      this.note(planned.record, shown, planned.contactId, reason);
    }
    this.onProgress?.(this.done, this.total());
  }

  /** Records never sent (the run stopped first). */
  pending(places: readonly StagedPlace[]): void {
    this.totals.pending += places.length;
    for (const place of places) this.note(place, 'pending', undefined, NOT_SENT);
  }

  /** Records of a chunk that never got an outcome: not sent, so pending. */
  pendingAll(items: readonly Planned[]): void {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'pending';
      this.totals.pending += 1;
      this.note(planned.record, 'pending', undefined, NOT_SENT);
    }
  }

  private note(
    place: StagedPlace,
    outcome: OutcomeRow['outcome'],
    contactId?: string,
    reason?: string,
  ): void {
    const { file, row, line, key } = place;
    this.outputs.outcomes?.add({
      file,
      row,
      line,
      outcome,
      identity: key,
      ...(contactId !== undefined ? { contactId } : {}),
      ...(reason !== undefined ? { reason } : {}),
    });
  }

  /** The chunk's request was sent and failed for good (retries exhausted, a refusal): failed. */
  failAll(items: readonly Planned[], error: unknown): void {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'failed';
      this.failRecord(planned.record, 'load_failed', sentButFailed(error), planned.contactId);
    }
  }

  failRecord(record: StagedPlace, code: Issue['code'], why: string, contactId?: string): void {
    const message = recordNotLoaded(why);
    this.totals.failed += 1;
    this.done += 1;
    this.note(record, 'failed', contactId, message);
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
    this.note(planned.record, 'rejected', undefined, issue.message);
    const { input, row } = planned.record;
    this.outputs.reject(input, { row, errors: [issue.message] });
  }
}

export const NOT_SENT = 'not sent: the run stopped first; the same command sends it';

const sentButFailed = (error: unknown): string =>
  `${error instanceof Error ? error.message : String(error)}; the same command sends it again`;
