import type { ServiceClient } from '../client/index.js';
import type { ChangeSink } from '../load/previews.js';
import type { StepHook } from '../load/steps.js';
import type { Staging } from '../package/staging.js';
import type { KnownImages, ScopeContacts } from '../state/index.js';
import { archiveGone } from './archive.js';
import { changeRowsOf } from './changes.js';
import { clearableFields, planBatch, type BatchPlan } from './members.js';
import type { SyncPlan } from './plan.js';

/** report.json `sync`: what a sync run did (or, dry, would do) to its scope. */
export interface SyncCounts {
  scope: string;
  archived: number;
  unarchived: number;
  valuesRemoved: number;
  fieldsCleared: number;
}

/** The place of a sync run the crash tests stop at: an archive chunk the target applied. */
export type SyncStep = 'sync-archived';

export interface SyncPhaseOptions {
  plan: SyncPlan;
  staging: Staging;
  /** The ledger scope the load resolved into: identity key -> contact id. */
  contacts: ScopeContacts & KnownImages;
  /** Absent or dry: nothing is sent, the counts and changes.csv say what would be. */
  client?: ServiceClient;
  dryRun: boolean;
  runId: string;
  chunkSize: number;
  /** The contact fields each input's header has a column for, by input index. */
  headerFields: ReadonlyMap<number, readonly string[]>;
  changes?: ChangeSink;
  signal?: AbortSignal;
  onStep?: StepHook<SyncStep>;
}

/**
 * After the load: members present at the source are brought in line with it (unarchived, lost
 * e-mails and phones removed through E11, emptied fields cleared), then the members absent from
 * every input are archived (archive.ts). Each chunk is recorded in the ledger once the target
 * applied it, so the same command after a crash sends only what is left. Stops between chunks
 * when signalled.
 */
export const runSyncPhase = async (options: SyncPhaseOptions): Promise<SyncCounts> => {
  const { plan, staging, dryRun } = options;
  const counts: SyncCounts = {
    scope: plan.scope,
    archived: 0,
    unarchived: 0,
    valuesRemoved: 0,
    fieldsCleared: 0,
  };
  const clearable = new Map<number, ReadonlySet<string>>();
  const clearableOf = (input: number) => {
    let set = clearable.get(input);
    if (!set) clearable.set(input, (set = clearableFields(options.headerFields.get(input))));
    return set;
  };
  const present = new Set<string>();
  const live = !dryRun && options.client !== undefined;
  // Archives a killed run sent with no answer recorded: checked on the target, not sent blindly.
  const pending = new Map(live ? plan.ledger.pendingArchives().map((p) => [p.contactId, p]) : []);
  for (const records of staging.batches(Math.max(options.chunkSize, 100))) {
    if (options.signal?.aborted) return counts;
    const ids = new Map(
      [...options.contacts.getContacts(records.map((r) => r.key))].map(([key, e]) => [key, e.contactId]),
    );
    const batch = planBatch(records, ids, plan.ledger, clearableOf, new Set(pending.keys()));
    for (const id of batch.present) present.add(id);
    // Before the values go: a ledger still holding them would call their return unchanged.
    if (!dryRun) options.contacts.forgetWrites(batch.work.map((w) => w.record.key));
    if (live) await sendMemberWork(options.client!, batch, options.chunkSize);
    if (!dryRun) plan.ledger.commit(options.runId, batch.members, batch.effects);
    // In the inputs again and sent `is_archived: false` above: no longer in flight.
    if (live)
      plan.ledger.dropPending(batch.work.flatMap((w) => (w.inFlight ? [pending.get(w.contactId)!.seq] : [])));
    options.changes?.add(changeRowsOf(batch));
    for (const e of batch.effects) {
      if (e.kind === 'unarchived') counts.unarchived += 1;
      else if (e.kind === 'removed') counts.valuesRemoved += 1;
      else if (e.kind === 'cleared') counts.fieldsCleared += 1;
    }
  }
  const gone = plan.gone.filter((m) => !present.has(m.contactId)).map((m) => m.contactId);
  counts.archived = await archiveGone(gone, {
    ledger: plan.ledger,
    runId: options.runId,
    chunkSize: options.chunkSize,
    ...(live ? { client: options.client! } : {}),
    pending,
    ...(options.changes ? { changes: options.changes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
  return counts;
};

/** E11 for each contact that lost list entries, then one E1 for unarchives, clears and labels. */
const sendMemberWork = async (client: ServiceClient, batch: BatchPlan, chunkSize: number): Promise<void> => {
  // The client holds the run's one concurrency limit: these queue behind it like any request.
  await Promise.all(
    batch.work.flatMap((w) => (w.legacy ? [client.legacyUpdateContact(w.contactId, w.legacy)] : [])),
  );
  const elements = batch.work.flatMap((w) => (w.data ? [{ contactId: w.contactId, data: w.data }] : []));
  for (let at = 0; at < elements.length; at += chunkSize)
    await client.bulkUpdateContacts(elements.slice(at, at + chunkSize));
};
