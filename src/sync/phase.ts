import type { ServiceClient } from '../client/index.js';
import type { ChangeSink } from '../load/previews.js';
import type { StepHook } from '../load/steps.js';
import type { Staging } from '../package/staging.js';
import type { KnownImages, PendingArchive, ScopeContacts } from '../state/index.js';
import { archiveGone } from './archive.js';
import { changeRowsOf } from './changes.js';
import {
  clearableFields,
  planBatch,
  syncRecordOf,
  type BatchPlan,
  type MemberWork,
  type SyncRecord,
} from './members.js';
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
  // A batch's chunks are sent while the next batch is read and what it would send computed (no
  // ledger read); its ledger reads wait for them, so each batch sees the members before it recorded.
  let sending: Promise<void> = Promise.resolve();
  for await (const records of readBatches(staging, options.chunkSize)) {
    await sending;
    if (options.signal?.aborted) return counts;
    // The contact ids and their memberships in one lookup of the batch's keys.
    const resolved = plan.ledger.resolve(records.map((r) => r.record.key));
    const batch = planBatch(records, resolved, clearableOf, inFlight);
    for (const id of batch.present) present.add(id);
    sending = sendChunks(chunksOf(batch, options.chunkSize), options, live, pending, counts);
    // Awaited before the next batch reads the ledger; marked handled so that a failure waits for it.
    sending.catch(() => undefined);
  }
  await sending;
  if (options.signal?.aborted) return counts;
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
/** Records read from the staging between two turns of the event loop (the sends in flight go on). */
const READ_PAGE = 500;

/**
 * The staged records in batches of about PLAN_BATCH, each with what the run would send for it,
 * read a page at a time with a turn of the event loop between pages: the requests of the chunk
 * being sent meanwhile are answered and the next ones leave while the staging is read.
 */
async function* readBatches(staging: Staging, chunkSize: number): AsyncGenerator<SyncRecord[]> {
  const size = Math.max(chunkSize, PLAN_BATCH);
  let batch: SyncRecord[] = [];
  let chars = 0;
  for (const page of staging.pages(READ_PAGE)) {
    // At most PLAN_BATCH_CHARS of staged JSON past a batch's first page: wide records, small batches.
    if (batch.length > 0 && chars + page.chars > PLAN_BATCH_CHARS) {
      yield batch;
      batch = [];
      chars = 0;
    }
    for (const record of page.records) batch.push(syncRecordOf(record));
    chars += page.chars;
    if (batch.length >= size) {
      yield batch;
      batch = [];
      chars = 0;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (batch.length > 0) yield batch;
}

/** A batch's chunks one after another (applyWork), counted; stops between chunks when signalled. */
const sendChunks = async (
  parts: readonly WorkChunk[],
  options: SyncPhaseOptions,
  live: boolean,
  pending: ReadonlyMap<string, PendingArchive>,
  counts: SyncCounts,
): Promise<void> => {
  for (const part of parts) {
    if (options.signal?.aborted) return;
    await applyWork(part, options, live, pending);
    for (const e of part.effects) {
      if (e.kind === 'unarchived') counts.unarchived += 1;
      else if (e.kind === 'removed') counts.valuesRemoved += 1;
      else if (e.kind === 'cleared') counts.fieldsCleared += 1;
    }
  }
};

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
