import type { ServiceClient, RequestError } from '../client/index.js';
import { startResolution, type Continues } from './continuation.js';
import type { LedgerScope } from '../state/index.js';
import type { References } from '../package/references.js';
import type { Staging, StagedPlace } from '../package/staging.js';
import type { Issue, RejectedRecord, Totals } from '../core/types.js';
import { ensureReferences, type ReferenceCounts } from './references.js';
import { syncReminders } from './reminders.js';
import { Resolver, type MatchMode, type Planned } from './resolve.js';
import { createChunk, updateChunk, type SendEvents } from './send.js';
import { chunkBy, createBytes, updateBytes, writeJson } from './chunks.js';
import { reclaimAfter } from './reclaim.js';
import { tooLargeIssue } from '../normalize/record-size.js';
import { TaskWindow } from './window.js';
import { previewRows, previewUpdate, updateEffect, type ChangeSink } from './previews.js';
import { recordNotLoaded } from '../core/consequence.js';

export interface LoadOptions {
  client?: ServiceClient;
  scope?: LedgerScope;
  dryRun: boolean;
  runId: string;
  chunkSize: number;
  /** `--max-body-bytes`: no request body is larger; a record that fits none is rejected. */
  maxBodyBytes: number;
  concurrency: number;
  match: MatchMode;
  /** The target held no contacts when the run began: no e-mail search can hit, so none is sent. */
  targetWasEmpty: boolean;
  /** Graceful stop: no new chunk starts; chunks in flight finish. */
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Where the load stage reports a record it could not load: its issue, and the record for its rejected file. */
export interface FailedRecordSink {
  issues: { add(issue: Issue): void };
  reject(input: number, record: RejectedRecord): void;
}

export interface LoadContext {
  staging: Staging;
  references: References;
  totals: Totals;
  outputs: FailedRecordSink;
  /** Each update's changed scalar fields (changes.csv); absent: not collected. */
  changes?: ChangeSink;
}

export interface LoadOutcome {
  references: ReferenceCounts;
  reminders: { created: number; updated: number };
  /** Creates of an earlier, interrupted run that this run resent and completed. */
  resumedCreates: number;
  /** The target held no contact while the ledger listed some: the ledger was not trusted. */
  targetReset: boolean;
  /** The run continues an interrupted one and resolves as it did (issue 15.1). */
  continues?: Continues;
  /** Why a continuation searches after all. */
  searchReason?: string;
}

interface Chunk {
  kind: 'create' | 'update' | 'unchanged';
  items: Planned[];
}

/**
 * resolve -> load over the staged records. Every staged record ends created, updated, unchanged,
 * failed (sent, and refused or out of retries) or pending: when the run stops early (a run-level
 * failure or a graceful stop) the records not sent are `pending`, in no issue and no rejected file,
 * and the ledger lets the same command finish the job.
 */
export const load = async (options: LoadOptions, ctx: LoadContext): Promise<LoadOutcome> => {
  const { client, dryRun } = options;
  const { totals, outputs } = ctx;
  const targetReset = isTargetReset(options);
  // A live run forgets the stale scope and loads everything afresh; a dry run just ignores it.
  if (targetReset && !dryRun) options.scope?.forgetTarget();
  const scope = targetReset && dryRun ? undefined : options.scope;
  const live = !dryRun && client !== undefined && scope !== undefined;

  const start = live
    ? await startResolution({
        client,
        scope,
        runId: options.runId,
        targetWasEmpty: options.targetWasEmpty,
        staged: ctx.staging.size,
      })
    : { searchless: options.targetWasEmpty, resumedCreates: 0 };
  const { resumedCreates } = start;
  const resolution = {
    resumedCreates,
    ...(start.continues ? { continues: start.continues } : {}),
    ...(start.searchReason ? { searchReason: start.searchReason } : {}),
  };
  const refs = await ensureReferences(ctx.references, { client, scope, dryRun, runId: options.runId });
  const reminders = { created: 0, updated: 0 };
  const total = ctx.staging.size;
  let done = 0;
  let chunkSeq = 0;

  const settleCount = (outcome: 'created' | 'updated' | 'unchanged', count: number) => {
    totals[outcome] += count;
    done += count;
    options.onProgress?.(done, total);
  };
  const settle = (outcome: 'created' | 'updated' | 'unchanged', items: Planned[]) =>
    settleCount(outcome, items.length);
  const failRecord = (record: StagedPlace, code: Issue['code'], why: string) => {
    const message = recordNotLoaded(why);
    totals.failed += 1;
    done += 1;
    outputs.issues.add({
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
    outputs.reject(record.input, { raw: record.raw, row: record.row, errors: [message] });
  };
  if (ctx.staging.keysOnly) {
    // A dry run with nothing to compare with: every staged identity would be created.
    if (!options.signal?.aborted) settleCount('created', total);
    else totals.pending += total;
    return { references: refs.counts, reminders, targetReset, ...resolution };
  }

  /** Records of a chunk that never got an outcome: not sent, so pending. */
  const pendingAll = (items: Planned[]) => {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'pending';
      totals.pending += 1;
    }
  };
  /** The chunk's request was sent and failed for good (retries exhausted, a refusal): failed. */
  const failAll = (items: Planned[], error: unknown) => {
    for (const planned of items) {
      if (planned.outcome !== undefined && planned.outcome !== 'gone') continue;
      planned.outcome = 'failed';
      failRecord(planned.record, 'load_failed', sentButFailed(error));
    }
  };
  const withReminders = async (items: Planned[]) => {
    const counts = await syncReminders(items, { client, scope, dryRun });
    reminders.created += counts.created;
    reminders.updated += counts.updated;
  };
  const events = (gone: Planned[]): SendEvents => ({
    settled: settle,
    failed: (planned, error) => {
      // A refused update changed nothing: the journal keeps nothing for an undo to take back.
      if (planned.contactId !== undefined) scope?.dropUpdate(options.runId, planned.contactId);
      failRecord(
        planned.record,
        error.status === 413 ? 'record_too_large' : 'service_rejected',
        describe(error),
      );
    },
    gone: (planned) => {
      scope?.dropUpdate(options.runId, planned.contactId!);
      gone.push(planned);
    },
  });

  const send = async (chunk: Chunk): Promise<void> => {
    if (!live) {
      chunk.items.forEach((p) => (p.outcome = chunk.kind === 'create' ? 'created' : 'updated'));
      settle(chunk.kind === 'create' ? 'created' : 'updated', chunk.items);
      await withReminders(chunk.items);
      return;
    }
    const gone: Planned[] = [];
    try {
      if (chunk.kind === 'create') {
        await createChunk(chunk.items, {
          client,
          scope,
          runId: options.runId,
          idempotencyKey: `${options.runId}-c${chunkSeq++}`,
          events: events(gone),
        });
      } else {
        // The before-images are on disk before the request leaves: no crash loses what to undo.
        scope.recordUpdates(
          options.runId,
          chunk.items.map((p) => updateEffect(p, previewUpdate(p))),
        );
        await updateChunk(chunk.items, { client, scope, events: events(gone) });
      }
      // A contact deleted on the target since it was loaded is created again.
      if (gone.length > 0) {
        gone.forEach((p) => {
          p.contactId = undefined;
          p.outcome = undefined;
        });
        await createChunk(gone, {
          client,
          scope,
          runId: options.runId,
          idempotencyKey: `${options.runId}-c${chunkSeq++}`,
          events: events([]),
        });
      }
    } catch (error) {
      failAll(chunk.items, error);
      throw error;
    }
    await withReminders(chunk.items.filter((p) => p.outcome === 'created' || p.outcome === 'updated'));
  };

  const resolver = new Resolver({
    scope,
    client,
    match: options.match,
    ids: refs.ids,
    targetWasEmpty: start.searchless,
    lookUpKnown: dryRun,
    ...(scope ? { undone: (id: string) => scope.isUndone(id) } : {}),
  });
  // Bodies in flight are bounded too: four 5 MB bodies, each answered with its contacts, would
  // hold well over 100 MB at once. Two full bodies at a time (and reclaim.ts) keep a run of wide
  // rows under 300 MB; chunks of ordinary records (tens of KB) still go `concurrency` at a time.
  const window = new TaskWindow(Math.max(1, options.concurrency), 2 * options.maxBodyBytes);
  let stoppedBy: unknown;
  const stopped = () => options.signal?.aborted === true || window.failed || stoppedBy !== undefined;
  const batchSize = Math.max(options.chunkSize * options.concurrency * 2, options.chunkSize);
  const limits = { count: options.chunkSize, bytes: options.maxBodyBytes };
  /** Normalization rejects what cannot fit (record-size.ts); this catches the rest (longer ids). */
  const rejectTooLarge = (planned: Planned) => {
    planned.outcome = 'rejected';
    totals.rejected += 1;
    done += 1;
    const issue = tooLargeIssue(planned.record, writeJson(planned).length, options.maxBodyBytes);
    outputs.issues.add(issue);
    const { input, raw, row } = planned.record;
    outputs.reject(input, { raw, row, errors: [issue.message] });
  };
  // Wide records make small batches: what is resolved at once stays near two request bodies.
  for (const batch of ctx.staging.batches(batchSize, 2 * options.maxBodyBytes)) {
    if (stopped()) {
      totals.pending += batch.length;
      continue;
    }
    let plan;
    try {
      plan = await resolver.plan(batch);
    } catch (error) {
      // The search failed, not the records: none of them was sent.
      stoppedBy ??= error;
      totals.pending += batch.length;
      continue;
    }
    if (ctx.changes) {
      for (const planned of plan.updates) {
        const changes = previewUpdate(planned);
        if (changes) ctx.changes.add(previewRows(planned, changes));
      }
    }
    plan.unchanged.forEach((p) => (p.outcome = 'unchanged'));
    settle('unchanged', plan.unchanged);
    const updates = chunkBy(plan.updates, limits, updateBytes);
    const creates = chunkBy(plan.creates, limits, createBytes);
    [...updates.oversize, ...creates.oversize].forEach(rejectTooLarge);
    const chunks: Chunk[] = [
      ...(plan.unchanged.length > 0 ? [{ kind: 'unchanged' as const, items: plan.unchanged }] : []),
      ...updates.chunks.map((items) => ({ kind: 'update' as const, items })),
      ...creates.chunks.map((items) => ({ kind: 'create' as const, items })),
    ];
    for (const chunk of chunks) {
      const bytes = chunkBytes(chunk);
      const task =
        chunk.kind === 'unchanged'
          ? () => withReminders(chunk.items)
          : () => send(chunk).finally(() => reclaimAfter(bytes));
      if (stopped() || !(await window.run(task, bytes))) pendingAll(chunk.items);
    }
  }
  try {
    await window.drain();
  } catch (error) {
    stoppedBy ??= error;
  }
  if (stoppedBy !== undefined) throw stoppedBy;
  // Every record reached an outcome: nothing is left for a continuation.
  if (live && !options.signal?.aborted) scope.endContinuation();
  return { references: refs.counts, reminders, targetReset, ...resolution };
};

/** What a chunk's request carries, as measured when it was made (chunks.ts); unchanged ones send nothing. */
const chunkBytes = (chunk: Chunk): number =>
  chunk.kind === 'unchanged'
    ? 0
    : chunk.items.reduce((sum, p) => sum + (chunk.kind === 'create' ? createBytes(p) : updateBytes(p)), 0);

/**
 * The target answered that it holds no contact (archived ones included) while the ledger lists
 * some: it was reset (its database deleted, its contacts removed), so the ledger no longer
 * describes it and trusting it would call every record unchanged and send nothing.
 */
const isTargetReset = ({ client, scope, targetWasEmpty }: LoadOptions): boolean =>
  client !== undefined && scope !== undefined && targetWasEmpty && scope.hasContacts();

const describe = (error: RequestError): string => {
  const details = error.details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return details ? `${error.message} (${details})` : error.message;
};

const sentButFailed = (error: unknown): string =>
  `${error instanceof Error ? error.message : String(error)}; the same command sends it again`;
