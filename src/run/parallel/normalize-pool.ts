import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BatchAnswer, BatchRequest, NormalizeRow, PreparedOutcome, WorkerSetup } from './protocol.js';

/** Inputs smaller than this are normalized in-thread: starting workers costs more than it saves. */
export const PARALLEL_MIN_BYTES = 8 * 1024 * 1024;

/**
 * How many normalize workers an input gets: the number `requested` when given (0 = in-thread;
 * the command line's `CONTACT_IMPORT_WORKERS`), else, for a file of PARALLEL_MIN_BYTES or more, one per core this run can count on but the one
 * the main thread keeps (at most 4), else none. `coresTaken`: cores another process on this
 * machine needs meanwhile (a local service loading while this run reads); `cores`: the machine's
 * unless given. With none left over the file is normalized in-thread: on two cores shared with a
 * service, a worker's parallelism is taken from the service, and it costs 2 to 3 CPU-s a
 * 200,000-row run in copies and collections (bench/README.md, "Issue 10: in-thread beside a local
 * service"). stdin and unreadable paths get none: the reader reports those.
 */
export const workersFor = (
  path: string,
  how: { requested?: number | undefined; coresTaken?: number | undefined; cores?: number } = {},
): number => {
  const wanted = how.requested;
  if (wanted !== undefined) return Number.isInteger(wanted) && wanted > 0 ? Math.min(wanted, 16) : 0;
  if (path === '-') return 0;
  try {
    if (statSync(path).size < PARALLEL_MIN_BYTES) return 0;
  } catch {
    return 0;
  }
  const taken = how.coresTaken ?? 0;
  // The main thread reads, stages and loads: it keeps a core of its own. With no core taken by
  // another process, one worker at least, as always.
  const cores = how.cores ?? availableParallelism();
  return Math.min(4, Math.max(taken > 0 ? 0 : 1, cores - 1 - taken));
};

/**
 * The compiled worker. Run from `dist/` it sits beside this module; run from `src/` (tests through
 * vitest) it is the build's copy, since a worker cannot load TypeScript.
 */
const workerUrl = (): URL => {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new URL('./normalize-worker.js', import.meta.url);
  const root = resolve(dirname(here), '../../..');
  return new URL(`file://${resolve(root, 'dist/run/parallel/normalize-worker.js')}`);
};

/** Peak RSS at 1,000,000 rows stays under 250 MB with these (bench/README.md, memory row). */
const WORKER_HEAP_MB = 32;
const WORKER_YOUNG_MB = 8;

interface Waiting {
  resolve: (outcomes: PreparedOutcome[]) => void;
  reject: (error: Error) => void;
}

/**
 * Maps and normalizes batches of rows in worker threads. `submit` answers in submission order
 * whatever worker finishes first, since each batch keeps its own promise; the caller bounds how
 * many are in flight, which bounds memory.
 */
export class NormalizePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private broken: Error | undefined;

  constructor(setup: WorkerSetup, size: number) {
    const url = workerUrl();
    this.workers = Array.from({ length: size }, () => {
      // A worker holds one batch at a time: a small heap keeps the run's memory flat.
      const worker = new Worker(url, {
        workerData: setup,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
      });
      worker.on('message', (answer: BatchAnswer) => this.answer(answer));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`a normalize worker exited with code ${code}`));
      });
      return worker;
    });
  }

  /** Workers in the pool. */
  get size(): number {
    return this.workers.length;
  }

  /** Batches submitted and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** A worker died or failed: every batch not answered was rejected, and no new one is taken. */
  get failed(): boolean {
    return this.broken !== undefined;
  }

  submit(rows: NormalizeRow[]): Promise<PreparedOutcome[]> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    const request: BatchRequest = { id, rows };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[id % this.workers.length]!.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
    this.fail(new Error('the normalize pool was closed'));
  }

  private answer(answer: BatchAnswer): void {
    const waiting = this.waiting.get(answer.id);
    if (!waiting) return;
    this.waiting.delete(answer.id);
    if ('error' in answer)
      waiting.reject(new Error(`normalizing a batch failed in a worker: ${answer.error}`));
    else waiting.resolve(answer.outcomes);
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
