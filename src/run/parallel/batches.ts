import type { RowMapper } from '../../mapping/index.js';
import type { Issue, SourceItem } from '../../core/types.js';
import { NormalizePool } from './normalize-pool.js';
import { normalizeRowOf, type NormalizeRow, type PreparedOutcome, type WorkerSetup } from './protocol.js';
import { createRowNormalizer } from './row-normalizer.js';

/**
 * Rows per batch, at most. Small on purpose: a batch's records and their JSON are alive from the
 * moment the worker makes them until this thread has staged them, and at 500 rows that outlived
 * two young collections on both threads, so V8 copied and promoted most of every record (1 GB
 * promoted in a 200,000-row run) and ran a full collection every quarter second in the worker.
 * At 100, a 200,000-row dry run costs 12% less CPU and 26 MB less RSS, and a run about 2 s less
 * (bench/README.md, "Issue 10: smaller normalize batches").
 */
const BATCH_ROWS = 100;
/**
 * Characters of source text per batch, at most (the row that passes it ends the batch): a worker
 * holds a batch several times over (the rows, their values, the records, their JSON) in a 64 MB
 * heap, so batches are bounded by size, not only by count.
 */
export const BATCH_CHARS = 1024 * 1024;
/** A row this large is normalized in this thread, alone: a worker's heap could not hold it often enough. */
const HUGE_ROW_CHARS = 4 * BATCH_CHARS;
/** Characters of source text in flight to the workers, at most (this thread keeps the items too). */
const IN_FLIGHT_CHARS = 3 * 1024 * 1024;
/**
 * Batches a worker holds at once (the one it works on and five more, 600 rows): past that, this
 * thread normalizes the next batch itself rather than wait, so both cores work whatever the share
 * of reading and normalizing. Too short a queue and this thread takes so many batches that the
 * worker waits for it (two batches of 500 cost a 200,000-row dry run 0.8 s against three); with
 * batches of 100, six keep the worker fed (bench/README.md).
 */
const WORKER_QUEUE = 6;

interface Batch {
  items: SourceItem[];
  rows: NormalizeRow[];
  chars: number;
  outcomes: Promise<PreparedOutcome[]>;
  /** Its outcomes are there (normalized here, or answered by a worker): settling it will not wait. */
  ready: boolean;
}

/** What a lost worker is reported as: the file's rows it held, and why it died. */
interface Lost {
  first: number;
  last: number;
  reason: string;
}

/**
 * The normalize stage of one input: its items in batches (bounded by rows and by size), sent to the
 * workers when there are any (this thread takes a batch itself while each worker holds
 * WORKER_QUEUE), and settled in read order, a bounded number in flight. Output is the same as
 * in-thread. A worker that dies (out of memory, crashed) costs nothing but time: the rows it held,
 * and every later batch, are normalized in this thread, and `onWorkerLost` gets one warning issue
 * naming the file and the row range.
 */
export class NormalizeBatches {
  private readonly pool: NormalizePool | undefined;
  private inThread: ((row: NormalizeRow) => PreparedOutcome) | undefined;
  private readonly inFlight: Batch[] = [];
  private readonly maxInFlight: number;
  private inFlightChars = 0;
  private items: SourceItem[] = [];
  private rows: NormalizeRow[] = [];
  private chars = 0;
  private lost: Lost | undefined;
  private poolUsable: boolean;

  constructor(
    private readonly setup: WorkerSetup,
    workers: number,
    private readonly settle: (items: SourceItem[], outcomes: PreparedOutcome[]) => void,
    private readonly onWorkerLost: (issue: Issue) => void,
    /** The input's header plan, built once by the caller; this thread's normalizer maps with it. */
    private readonly mapper?: RowMapper,
  ) {
    this.pool = workers > 0 ? new NormalizePool(setup, workers) : undefined;
    this.poolUsable = this.pool !== undefined;
    this.maxInFlight = workers * WORKER_QUEUE + 2;
  }

  /**
   * Takes the next item; a promise only when a batch is dispatched (wait for it before the next
   * add), else undefined: most items only join the open batch, and a promise a row costs time.
   */
  add(item: SourceItem): Promise<void> | undefined {
    const huge = item.raw.length > HUGE_ROW_CHARS;
    if (huge && this.items.length > 0) return this.dispatch(false).then(() => this.add(item));
    this.items.push(item);
    if (item.kind === 'row') this.rows.push(normalizeRowOf(item));
    this.chars += item.raw.length;
    if (huge || this.items.length >= BATCH_ROWS || this.chars >= BATCH_CHARS) return this.dispatch(huge);
    return undefined;
  }

  /** Settles everything read; then the workers stop. */
  async finish(): Promise<void> {
    if (this.items.length > 0) await this.dispatch(false);
    while (this.inFlight.length > 0) await this.settleOldest();
    await this.close();
  }

  /** Stops the workers (also when reading stopped early); reports a lost worker once. */
  async close(): Promise<void> {
    await this.pool?.close();
    if (this.lost) {
      const { first, last, reason } = this.lost;
      this.lost = undefined;
      this.onWorkerLost({
        file: this.setup.file,
        row: 0,
        line: 0,
        severity: 'warning',
        stage: 'normalize',
        field: '',
        value: `rows ${first}-${last}`,
        code: 'normalize_fallback',
        message: `a normalize worker died (${reason}) holding rows ${first}-${last} of ${this.setup.file}; those rows and the rest of the file were normalized in the main thread, nothing was lost`,
      });
    }
  }

  private async dispatch(inThread: boolean): Promise<void> {
    const { items, rows, chars } = this;
    this.items = [];
    this.rows = [];
    this.chars = 0;
    const pool = this.poolUsable && !this.pool!.failed ? this.pool : undefined;
    // Workers busy (each holds its next batch already): this thread does this one meanwhile.
    const toWorker =
      !inThread &&
      pool !== undefined &&
      // A load shares this thread (setup.background): every batch goes to the workers.
      (this.setup.background === true || pool.pending < WORKER_QUEUE * pool.size);
    const batch: Batch = { items, rows, chars, outcomes: undefined!, ready: !toWorker };
    if (toWorker) {
      batch.outcomes = pool.submit(rows);
      // A rejection is handled when the batch is settled, in order; never unhandled meanwhile.
      batch.outcomes.then(
        () => (batch.ready = true),
        () => (batch.ready = true),
      );
    } else batch.outcomes = Promise.resolve(rows.map(this.normalizer()));
    this.inFlight.push(batch);
    this.inFlightChars += chars;
    // Settled in read order: what is ready at the head now, then wait only past the bounds.
    while (this.inFlight.length > 0 && this.inFlight[0]!.ready) await this.settleOldest();
    while (this.inFlight.length > this.maxInFlight || this.inFlightChars > IN_FLIGHT_CHARS) {
      await this.settleOldest();
    }
  }

  private async settleOldest(): Promise<void> {
    const batch = this.inFlight.shift()!;
    this.inFlightChars -= batch.chars;
    let outcomes: PreparedOutcome[];
    try {
      outcomes = await batch.outcomes;
    } catch (error) {
      this.poolUsable = false;
      this.noteLost(batch, error);
      outcomes = batch.rows.map(this.normalizer());
    }
    this.settle(batch.items, outcomes);
  }

  private noteLost(batch: Batch, error: unknown): void {
    const first = batch.items[0]?.row ?? 0;
    const last = batch.items[batch.items.length - 1]?.row ?? first;
    const reason = error instanceof Error ? error.message : String(error);
    if (!this.lost) this.lost = { first, last, reason };
    else this.lost.last = Math.max(this.lost.last, last);
  }

  private normalizer(): (row: NormalizeRow) => PreparedOutcome {
    this.inThread ??= createRowNormalizer(this.setup, this.mapper);
    return this.inThread;
  }
}
