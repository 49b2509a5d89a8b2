import type { ServiceClient } from '../client/index.js';
import type { ChangeSink } from '../load/previews.js';
import type { StepHook } from '../load/steps.js';
import type { Staging } from '../package/staging.js';
import type { KnownImages, PendingArchive, ScopeContacts } from '../state/index.js';
import { archiveGone } from './archive.js';
import { changeRowsOf } from './changes.js';
import { clearableFields, planBatch, type BatchPlan, type MemberWork } from './members.js';
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
  const inFlight = new Set(pending.keys());
  // Read in large batches: most members are as the scope last sent them and cost one lookup each;
  // what needs sending goes a chunk at a time (applyWork), so few commits and requests per run.
  for (const records of staging.batches(Math.max(options.chunkSize, PLAN_BATCH), PLAN_BATCH_CHARS)) {
    if (options.signal?.aborted) return counts;
    // The contact ids and their memberships in one lookup of the batch's keys.
    const resolved = plan.ledger.resolve(records.map((r) => r.key));
    const batch = planBatch(records, resolved, clearableOf, inFlight);
    for (const id of batch.present) present.add(id);
    for (const part of chunksOf(batch, options.chunkSize)) {
      if (options.signal?.aborted) return counts;
      await applyWork(part, options, live, pending);
      for (const e of part.effects) {
        if (e.kind === 'unarchived') counts.unarchived += 1;
        else if (e.kind === 'removed') counts.valuesRemoved += 1;
        else if (e.kind === 'cleared') counts.fieldsCleared += 1;
      }
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

/** Records read per batch of the sync phase, and at most this much staged JSON past the first. */
const PLAN_BATCH = 5000;
const PLAN_BATCH_CHARS = 8 * 1024 * 1024;

/** What one chunk of member work needs: the work, and the members and effects of its contacts. */
type WorkChunk = Pick<BatchPlan, 'work' | 'members' | 'effects'>;

/**
 * A batch's work cut into chunks of `size` members, each with its members' ledger rows and
 * effects; the members with no work (joined, or values the load already sent) come last, alone.
 */
const chunksOf = (batch: BatchPlan, size: number): WorkChunk[] => {
  const chunkOf = new Map<string, number>();
  const chunks: WorkChunk[] = [];
  batch.work.forEach((w, i) => {
    const at = Math.floor(i / size);
    chunkOf.set(w.contactId, at);
    (chunks[at] ??= { work: [], members: [], effects: [] }).work.push(w);
  });
  const rest: WorkChunk = { work: [], members: [], effects: [] };
  for (const m of batch.members) (chunks[chunkOf.get(m.contactId) ?? -1] ?? rest).members.push(m);
  for (const e of batch.effects) (chunks[chunkOf.get(e.contactId) ?? -1] ?? rest).effects.push(e);
  return rest.members.length > 0 || rest.effects.length > 0 ? [...chunks, rest] : chunks;
};

/**
 * One chunk: the written values forgotten (on disk before anything is sent), the work sent, then
 * the members and effects committed, so the same command after a crash sends only what is left.
 */
const applyWork = async (
  part: WorkChunk,
  options: SyncPhaseOptions,
  live: boolean,
  pending: ReadonlyMap<string, PendingArchive>,
): Promise<void> => {
  const { plan, dryRun } = options;
  // Before the values go: a ledger still holding them would call their return unchanged.
  if (!dryRun) options.contacts.forgetWrites(part.work.map((w) => w.record.key));
  if (live) await sendMemberWork(options.client!, part.work, options.chunkSize);
  if (!dryRun) plan.ledger.commit(options.runId, part.members, part.effects);
  // In the inputs again and sent `is_archived: false` above: no longer in flight.
  if (live)
    plan.ledger.dropPending(part.work.flatMap((w) => (w.inFlight ? [pending.get(w.contactId)!.seq] : [])));
  options.changes?.add(changeRowsOf(part.work));
};

/** E11 for each contact that lost list entries, then one E1 for unarchives, clears and labels. */
const sendMemberWork = async (
  client: ServiceClient,
  work: readonly MemberWork[],
  chunkSize: number,
): Promise<void> => {
  // The client holds the run's one concurrency limit: these queue behind it like any request.
  await Promise.all(
    work.flatMap((w) => (w.legacy ? [client.legacyUpdateContact(w.contactId, w.legacy)] : [])),
  );
  const elements = work.flatMap((w) => (w.data ? [{ contactId: w.contactId, data: w.data }] : []));
  for (let at = 0; at < elements.length; at += chunkSize)
    await client.bulkUpdateContacts(elements.slice(at, at + chunkSize));
};
