import type { NormalizedRecord } from '../normalize/record.js';
import { chunkBy, createBytes, updateBytes } from './chunks.js';
import { chunkBytes, type Chunk, type ChunkSender } from './chunk-sender.js';
import { lookAhead } from './look-ahead.js';
import { previewRows, previewUpdate, type ChangeSink } from './previews.js';
import type { Plan, Resolver } from './resolve.js';
import type { LoadTally } from './tally.js';
import type { TaskWindow } from './window.js';

/**
 * Batches resolved ahead of the one whose chunks are being sent, when resolving searches the
 * target: their e-mail searches queue in the client (same limit, same retries) behind the chunks
 * already there, so the client always has work and the run is bound by the searches, not by
 * searches plus sends. Two batches of `chunk x concurrency x 2` records (and at most two request
 * bodies of staged JSON each) bound the records held.
 */
export const LOOK_AHEAD_BATCHES = 2;

export interface BatchLoop {
  batches: Iterable<NormalizedRecord[]> | AsyncIterable<NormalizedRecord[]>;
  resolver: Resolver;
  /** Awaited before each batch is planned (the references of records read since the last one). */
  beforePlan?: () => Promise<void>;
  sender: ChunkSender;
  tally: LoadTally;
  window: TaskWindow;
  limits: { count: number; bytes: number };
  /** Aborted when the run stops (a graceful stop or a failure): searches still queued are dropped. */
  halt: AbortController;
  /** Each update's changed scalar fields (changes.csv); absent: not collected. */
  changes?: ChangeSink;
}

/**
 * Resolves the staged records batch by batch (a few batches ahead, above) and hands their chunks
 * to the window. Returns what stopped the run early (a search that failed for good, a chunk whose
 * request did), undefined when nothing did; every record not sent is then `pending`.
 */
export const runBatches = async (loop: BatchLoop): Promise<unknown> => {
  const { tally, window, halt } = loop;
  let stoppedBy: unknown;
  const stopped = () => halt.signal.aborted || window.failed || stoppedBy !== undefined;
  const depth = loop.resolver.searches ? LOOK_AHEAD_BATCHES : 0;
  const { beforePlan } = loop;
  const plan = beforePlan
    ? async (batch: NormalizedRecord[]) => {
        await beforePlan();
        return loop.resolver.plan(batch);
      }
    : (batch: NormalizedRecord[]) => loop.resolver.plan(batch);
  const planned = lookAhead(loop.batches, plan, depth, stopped);
  for await (const step of planned) {
    if (stopped() || !step.started) {
      // A chunk failed for good: the searches still queued for the batches ahead are dropped.
      halt.abort();
      tally.pending(step.item);
    } else if ('error' in step) {
      // The search failed, not the records: none of them was sent.
      stoppedBy ??= step.error;
      halt.abort();
      tally.pending(step.item);
    } else {
      try {
        await queueChunks(loop, step.value, stopped);
      } catch (error) {
        // The ledger could not record the batch's creates: nothing of them was sent.
        stoppedBy ??= error;
        halt.abort();
      }
    }
  }
  try {
    await window.drain();
  } catch (error) {
    stoppedBy ??= error;
  }
  halt.abort();
  return stoppedBy;
};

/** Settles a batch's unchanged records and queues its update and create chunks in the window. */
const queueChunks = async (loop: BatchLoop, plan: Plan, stopped: () => boolean): Promise<void> => {
  const { tally, window, limits } = loop;
  if (loop.changes) {
    for (const planned of plan.updates) {
      const changes = previewUpdate(planned);
      if (changes) loop.changes.add(previewRows(planned, changes));
    }
  }
  plan.unchanged.forEach((p) => (p.outcome = 'unchanged'));
  tally.settle('unchanged', plan.unchanged);
  const updates = chunkBy(plan.updates, limits, updateBytes);
  const creates = chunkBy(plan.creates, limits, createBytes);
  [...updates.oversize, ...creates.oversize].forEach((p) => tally.rejectTooLarge(p, limits.bytes));
  const chunks: Chunk[] = [
    ...(plan.unchanged.length > 0 ? [{ kind: 'unchanged' as const, items: plan.unchanged }] : []),
    ...updates.chunks.map((items) => ({ kind: 'update' as const, items })),
    ...creates.chunks.map((items) => ({ kind: 'create' as const, items })),
  ];
  loop.sender.prepare(chunks);
  for (const chunk of chunks) {
    const bytes = chunkBytes(chunk);
    if (stopped() || !(await window.run(loop.sender.task(chunk, bytes), bytes)))
      tally.pendingAll(chunk.items);
  }
};
