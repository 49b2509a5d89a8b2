import type { ServiceClient } from '../client/index.js';
import { startResolution, type Continues, type ResolutionStart } from './continuation.js';
import type { LedgerScope } from '../state/index.js';
import type { References } from '../package/references.js';
import type { Staging } from '../package/staging.js';
import type { NormalizedRecord } from '../normalize/record.js';
import type { LoadCounts } from './types.js';
import { ensureReferences, type ReferenceCounts } from './references.js';
import { sendLateMerges } from './late-merges.js';
import { Resolver, type MatchMode } from './resolve.js';
import { TaskWindow } from './window.js';
import type { ChangeSink } from './previews.js';
import { LoadTally, type FailedRecordSink } from './tally.js';
import { ChunkSender } from './chunk-sender.js';
import { runBatches } from './batch-loop.js';
import type { StepHook } from './steps.js';
import type { TargetCandidates } from './target-candidates.js';

export type { FailedRecordSink } from './tally.js';
export { NOT_SENT } from './tally.js';

export interface LoadOptions {
  client?: ServiceClient;
  scope?: LedgerScope;
  dryRun: boolean;
  runId: string;
  chunkSize: number;
  /** `--max-body-bytes`: no request body is larger; a record that fits none is rejected. */
  maxBodyBytes: number;
  /**
   * The client's limit of requests in flight (the client enforces it): here it only says how many
   * chunks are built and started ahead, so the client always has the next one and no more.
   */
  concurrency: number;
  match: MatchMode;
  /** The target held no contacts when the run began: no e-mail search can hit, so none is sent. */
  targetWasEmpty: boolean;
  /** Graceful stop: no new chunk starts; chunks in flight finish. */
  signal?: AbortSignal;
  /**
   * Set while the inputs are still being read into the staging; resolves when reading ends, false
   * when it failed. A live run into an empty target loads while it reads (every record is a
   * create, its chunks the same as after reading); any other run waits for the end of reading
   * first, and loads nothing when reading failed.
   */
  reading?: Promise<boolean>;
  onProgress?: (done: number, total: number) => void;
  /** Called as the load passes each of its steps (steps.ts); the crash tests stop a run there. */
  onStep?: StepHook;
  /** The host process's garbage collector, called after a large request body (reclaim.ts). */
  collectGarbage?: () => void;
  /** Duplicate candidates against the target (target-candidates.ts); absent with `--candidates off`. */
  targetCandidates?: TargetCandidates;
}

export interface LoadContext {
  staging: Staging;
  references: References;
  /** The stage's own counts, returned in its result (run/stages.ts). */
  totals: LoadCounts;
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
  /** The run continues an interrupted one and resolves as it did. */
  continues?: Continues;
  /** Why a continuation searches after all. */
  searchReason?: string;
  /** The load ran while the inputs were still being read (a live run into an empty target). */
  whileReading?: boolean;
  /** Records whose resolution searched the target, by why (resolve.ts `searched`). */
  searched?: { unknown: number; changed: number };
}

/**
 * resolve -> load over the staged records. Every staged record ends created, updated, unchanged,
 * failed (sent, and refused or out of retries) or pending: when the run stops early (a run-level
 * failure or a graceful stop) the records not sent are `pending`, in no issue and no rejected file,
 * and the ledger lets the same command finish the job.
 */
export const load = async (options: LoadOptions, ctx: LoadContext): Promise<LoadOutcome> => {
  const { client, dryRun } = options;
  const follows =
    options.reading !== undefined && options.targetWasEmpty && !dryRun && !!client && !!options.scope;
  if (options.reading && !follows && !(await options.reading)) return nothingLoaded();
  const targetReset = isTargetReset(options);
  // A live run forgets the stale scope and loads everything afresh; a dry run just ignores it.
  if (targetReset && !dryRun) options.scope?.forgetTarget();
  const scope = targetReset && dryRun ? undefined : options.scope;
  const live = !dryRun && client !== undefined && scope !== undefined;

  const start: ResolutionStart = live
    ? await startResolution({
        client,
        scope,
        runId: options.runId,
        targetWasEmpty: options.targetWasEmpty,
        staging: ctx.staging,
      })
    : { searchless: options.targetWasEmpty, resumedCreates: 0 };
  const { runId, onStep } = options;
  const hook = onStep ? { onStep } : {};
  const refs = await ensureReferences(ctx.references, { client, scope, dryRun, runId, ...hook });
  const tally = new LoadTally(ctx.totals, ctx.outputs, () => ctx.staging.size, options.onProgress, dryRun);
  const collect = options.collectGarbage ? { collectGarbage: options.collectGarbage } : {};
  const sender = new ChunkSender({ client, scope, live, dryRun, runId, tally, ...hook, ...collect });
  const searched = { unknown: 0, changed: 0 };
  const outcome = (): LoadOutcome => ({
    searched,
    references: refs.counts,
    reminders: sender.reminders,
    targetReset,
    resumedCreates: start.resumedCreates,
    ...(start.continues ? { continues: start.continues } : {}),
    ...(start.searchReason ? { searchReason: start.searchReason } : {}),
    ...(follows ? { whileReading: true } : {}),
  });
  if (ctx.staging.keysOnly) {
    // A dry run with nothing to compare with: every staged identity would be created.
    const stopped = options.signal?.aborted === true;
    for (const places of ctx.staging.places(PLACES_BATCH)) {
      ctx.staging.reach(places.length);
      if (stopped) tally.pending(places);
      else tally.settlePlaces('created', places);
    }
    return outcome();
  }

  const stoppedBy = await sendStaged(options, ctx, {
    scope,
    live,
    follows,
    start,
    refs,
    tally,
    sender,
    searched,
  });
  if (stoppedBy !== undefined) throw stoppedBy;
  // Every record reached an outcome: nothing is left for a continuation.
  if (live && !options.signal?.aborted) {
    scope.endContinuation();
    scope.clearResolutions();
  }
  return outcome();
};

/** Places read back from a keys-only staging at a time. */
const PLACES_BATCH = 1024;

interface LoadParts {
  scope: LedgerScope | undefined;
  live: boolean;
  /** The load follows the staging while the inputs are still read (load while reading). */
  follows: boolean;
  start: ResolutionStart;
  refs: Awaited<ReturnType<typeof ensureReferences>>;
  tally: LoadTally;
  sender: ChunkSender;
  /** Filled with the resolver's counts once its batches are done. */
  searched: { unknown: number; changed: number };
}

/**
 * resolve -> chunks -> requests over the staged records, then the contacts a later duplicate
 * merged into after they were sent (a load that followed reading). Returns what stopped it early.
 */
const sendStaged = async (options: LoadOptions, ctx: LoadContext, parts: LoadParts): Promise<unknown> => {
  const { client } = options;
  const { scope, live, follows, start, refs, tally, sender } = parts;
  const halt = new AbortController();
  const stop = () => halt.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) halt.abort();
  const resolver = new Resolver({
    scope,
    client,
    match: options.match,
    ids: refs.ids,
    targetWasEmpty: start.searchless,
    signal: halt.signal,
    ...(scope ? { undone: (id: string) => scope.isUndone(id) } : {}),
    // Only a live run keeps what its searches decided; a dry run writes nothing to the ledger.
    ...(live ? { runId: options.runId } : {}),
    ...(start.reuse ? { reuse: start.reuse } : {}),
    ...(options.targetCandidates ? { targetCandidates: options.targetCandidates } : {}),
    // Checked after startResolution: creates it resumed are in the scope, so their keys are known.
    ...(follows && !start.reuse && scope?.hasContacts() === false ? { keysAreNew: true } : {}),
  });
  const { chunkSize, maxBodyBytes } = options;
  // Wide records make small batches: what is resolved at once stays near two request bodies.
  const batchSize = Math.max(chunkSize * options.concurrency * 2, chunkSize);
  const limits = { count: chunkSize, bytes: maxBodyBytes };
  let stoppedBy = await runBatches({
    batches: reaching(
      ctx.staging,
      follows
        ? ctx.staging.follow(batchSize, 2 * maxBodyBytes)
        : ctx.staging.batches(batchSize, 2 * maxBodyBytes),
    ),
    resolver,
    // Read meanwhile, a batch may name groups or custom fields (or categories) not created yet.
    ...(follows ? { beforePlan: () => refs.sync.ensure(ctx.references) } : {}),
    sender,
    tally,
    // Bodies in flight are bounded too: four 5 MB bodies, each answered with its contacts, would
    // hold well over 100 MB at once. Two full bodies at a time (and reclaim.ts) keep a run of wide
    // rows under 300 MB; chunks of ordinary records (tens of KB) still go `concurrency` at a time.
    window: new TaskWindow(Math.max(1, options.concurrency), 2 * maxBodyBytes),
    limits,
    halt,
    ...(ctx.changes ? { changes: ctx.changes } : {}),
  }).finally(() => {
    options.signal?.removeEventListener('abort', stop);
    Object.assign(parts.searched, resolver.searched);
  });
  if (follows && live && stoppedBy === undefined && !options.signal?.aborted) {
    // The last records read may name groups, fields or categories no batch ensured.
    await refs.sync.ensure(ctx.references).catch((error: unknown) => (stoppedBy ??= error));
  }
  if (follows && live) {
    await sendLateMerges(ctx.staging.mergedAfterSent(batchSize), {
      client: client!,
      scope: scope!,
      ids: refs.ids,
      limits,
      tally,
      totals: ctx.totals,
      reminders: sender.reminders,
      stopped: () => options.signal?.aborted === true || stoppedBy !== undefined,
    }).catch((error: unknown) => (stoppedBy ??= error));
  }
  return stoppedBy;
};

/** The staging's batches, each told to it as taken: every record taken gets its outcome here. */
async function* reaching(
  staging: Staging,
  batches: AsyncIterable<NormalizedRecord[]> | Iterable<NormalizedRecord[]>,
): AsyncGenerator<NormalizedRecord[]> {
  for await (const batch of batches) {
    staging.reach(batch.length);
    yield batch;
  }
}

/** Reading failed before a load that waited for it began: nothing was sent. */
const nothingLoaded = (): LoadOutcome => ({
  references: { groups: { created: 0, existing: 0 }, customFields: { created: 0, existing: 0 } },
  reminders: { created: 0, updated: 0 },
  resumedCreates: 0,
  targetReset: false,
});

/**
 * The target answered that it holds no contact (archived ones included) while the ledger lists
 * some: it was reset (its database deleted, its contacts removed), so the ledger no longer
 * describes it and trusting it would call every record unchanged and send nothing.
 */
const isTargetReset = ({ client, scope, targetWasEmpty }: LoadOptions): boolean =>
  client !== undefined && scope !== undefined && targetWasEmpty && scope.hasContacts();
