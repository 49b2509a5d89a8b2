import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { KeyIndex } from './key-index.js';
import { mergeRecords } from './merge.js';
import type { NormalizedRecord } from '../core/record.js';

/**
 * Where a staged record came from, and its identity: what a keys-only staging keeps of it. Its
 * source text is in the side table (`sourceOf`).
 */
export type StagedPlace = Pick<NormalizedRecord, 'file' | 'row' | 'line' | 'input' | 'key'>;

/** One record to stage. */
export interface StageEntry extends StagedPlace {
  /** The record's JSON, serialized once where it was normalized; '' when keys-only. */
  json: string;
  /**
   * Its source text, for the rejected file should it end rejected or failed later (the side
   * table, `sourceOf`); not kept when keys-only (a run that loads nothing rejects nothing later).
   */
  raw: string;
}

export interface StageResult {
  /** Set when the record's identity was seen before in this run: where the first one came from. */
  duplicateOf?: { file: string; row: number };
  /** A new identity's sequence number (first-seen order, from 1): what `mergeApart` names it by. */
  seq?: number;
}

/** How one kind of staging stores a record, and the statements the others read it back with. */
interface StagingMode {
  addOne: (entry: StageEntry) => StageResult;
  page?: Database.Statement;
  source?: Database.Statement;
  placesInOrder?: Database.Statement;
  placesAfter?: Database.Statement;
}

/**
 * Rows of one table by sequence number, the last one kept: a duplicate reads its first record's
 * row once, to confirm its fingerprint and then for its place or to merge into it.
 */
const rowsBySeq = <Row extends object>(statement: Database.Statement) => {
  let last: (Row & { seq: number }) | undefined;
  return {
    read: (seq: number): Row => (last?.seq === seq ? last : (last = { seq, ...(statement.get(seq) as Row) })),
    /** The row as this staging just wrote it (a merge), so a later duplicate reads what is there. */
    remember: (seq: number, row: Row): void => {
      last = { seq, ...row };
    },
  };
};

/**
 * The run's working set, on disk so memory stays flat whatever the input size: one row per
 * identity key, in first-seen order, duplicates merged into it as they arrive. Each record is
 * stored as the JSON it was serialized to once, and read back once by the load stage; its source
 * text sits in a side table, read only for a record that ends rejected or failed.
 */
export class Staging {
  private readonly dir: string;
  private readonly db: Database.Database;
  private readonly addMany: (entries: readonly StageEntry[]) => StageResult[];
  private readonly addOne: (entry: StageEntry) => StageResult;
  private readonly page: Database.Statement | undefined;
  private readonly source: Database.Statement | undefined;
  private readonly placesInOrder: Database.Statement | undefined;
  private readonly placesAfter: Database.Statement | undefined;
  /** Records, in first-seen order, that the load took (reach()): the rest never reached it. */
  private reached = 0;
  /** File names by input index (a keys-only staging keeps the index only). */
  private readonly files = new Map<number, string>();
  private count = 0;
  /** Followed while it fills (follow()): the last record handed out, and who waits for more. */
  private taken = 0;
  private filling = true;
  private waiting: (() => void) | undefined;
  /** Set by mergeApart: the identities index no longer matches the sequence numbers. */
  private sealed = false;
  /** Records handed out by follow() that a later duplicate merged into: sent before they were whole. */
  private readonly mergedAfterTaken = new Set<number>();

  /**
   * `keysOnly`: nothing but each identity and where it was first seen is kept, in one narrow table
   * (one insert a record); a duplicate is not merged and `batches` is not available. For a dry
   * run that only counts identities (and reports what it did not reach when interrupted).
   * `dir`: the run's scratch folder (state/run-work.ts), never the system's temp folder.
   */
  constructor(private readonly options: { dir: string; keysOnly?: boolean }) {
    this.dir = mkdtempSync(join(options.dir, 'stage-'));
    this.db = new Database(join(this.dir, 'stage.sqlite'));
    // Scratch data, rebuilt by every run: durability would only cost time.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    // Both kinds append and read back by sequence number (in order, or a duplicate's first row),
    // and every MB of cache here is resident for the whole run: 8 MB for records (a merge rewrites
    // one), 1 MB when only keys are kept; the OS file cache serves the rest.
    this.db.pragma(options.keysOnly ? 'cache_size = -1000' : 'cache_size = -8000');
    // One connection, ours alone: without this every transaction (one a batch) takes and drops
    // the file's locks and checks whether its cache is still valid (a third of a dry run's staging).
    this.db.pragma('locking_mode = EXCLUSIVE');
    const mode = options.keysOnly ? this.keysOnlyMode() : this.recordsMode();
    this.addOne = mode.addOne;
    this.page = mode.page;
    this.source = mode.source;
    this.placesInOrder = mode.placesInOrder;
    this.placesAfter = mode.placesAfter;
    this.addMany = this.db.transaction((entries: readonly StageEntry[]) => entries.map(this.addOne));
  }

  /**
   * Appended in first-seen order (sequence number = rowid); the identities are looked up in memory
   * (key-index.ts), the key read back from here only to confirm a fingerprint match.
   */
  private keysOnlyMode(): StagingMode {
    this.db.exec(
      'CREATE TABLE identities (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, input INTEGER NOT NULL,' +
        ' row INTEGER NOT NULL, line INTEGER NOT NULL)',
    );
    const append = this.db.prepare(
      'INSERT INTO identities (seq, key, input, row, line) VALUES (?, ?, ?, ?, ?)',
    );
    const rows = rowsBySeq<{ key: string; input: number; row: number }>(
      this.db.prepare('SELECT key, input, row FROM identities WHERE seq = ?'),
    );
    const index = new KeyIndex();
    const keyOf = (seq: number) => rows.read(seq).key;
    return {
      placesInOrder: this.db.prepare('SELECT input, row, line, key FROM identities ORDER BY seq'),
      placesAfter: this.db.prepare('SELECT input, row, line, key FROM identities WHERE seq > ? ORDER BY seq'),
      addOne: (e) => {
        const first = index.claim(e.key, this.count + 1, keyOf);
        if (first === undefined) {
          this.count += 1;
          append.run(this.count, e.key, e.input, e.row, e.line);
          return { seq: this.count };
        }
        const place = rows.read(first);
        return { duplicateOf: { file: this.files.get(place.input)!, row: place.row } };
      },
    };
  }

  /**
   * Records appended in first-seen order with their key (sequence number = rowid); the identities
   * are looked up in memory (key-index.ts), as for keys-only, not through a unique SQLite index on
   * random text keys (most of the staging's cost on large inputs).
   */
  private recordsMode(): StagingMode {
    this.db.exec(
      'CREATE TABLE staged (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, data TEXT NOT NULL);' +
        'CREATE TABLE sources (input INTEGER NOT NULL, row INTEGER NOT NULL, raw TEXT NOT NULL,' +
        ' PRIMARY KEY (input, row)) WITHOUT ROWID',
    );
    const insert = this.db.prepare('INSERT INTO staged (seq, key, data) VALUES (?, ?, ?)');
    const keep = this.db.prepare('INSERT INTO sources (input, row, raw) VALUES (?, ?, ?)');
    const update = this.db.prepare('UPDATE staged SET data = ? WHERE seq = ?');
    const rows = rowsBySeq<{ key: string; data: string }>(
      this.db.prepare('SELECT key, data FROM staged WHERE seq = ?'),
    );
    const index = new KeyIndex();
    const keyOf = (seq: number) => rows.read(seq).key;
    return {
      page: this.db.prepare('SELECT seq, data FROM staged WHERE seq > ? ORDER BY seq LIMIT ?'),
      source: this.db.prepare('SELECT raw FROM sources WHERE input = ? AND row = ?').pluck(),
      addOne: (e) => {
        const seq = index.claim(e.key, this.count + 1, keyOf);
        if (seq === undefined) {
          this.count += 1;
          insert.run(this.count, e.key, e.json);
          keep.run(e.input, e.row, e.raw);
          return { seq: this.count };
        }
        // A duplicate merges into the first record, which keeps its place (and source text).
        if (seq <= this.taken) this.mergedAfterTaken.add(seq);
        const first = JSON.parse(rows.read(seq).data) as NormalizedRecord;
        const data = JSON.stringify(mergeRecords(first, JSON.parse(e.json) as NormalizedRecord));
        update.run(data, seq);
        rows.remember(seq, { key: e.key, data });
        return { duplicateOf: { file: first.file, row: first.row } };
      },
    };
  }

  /**
   * Once reading has ended and before the load takes anything: merges each `from` record into its
   * `into` record as a duplicate would be (mergeRecords: lists unioned, first non-empty value
   * wins), removes the `from` records and renumbers the rest in first-seen order, so the load
   * sees one record per person. Returns the records merged away, as they were. Records mode only;
   * nothing can be staged after it.
   */
  mergeApart(merges: readonly { into: number; from: number }[]): StagedPlace[] {
    if (!this.page) throw new Error('a keys-only staging keeps no records to merge');
    if (this.taken > 0 || this.reached > 0) throw new Error('mergeApart after the load took records');
    if (merges.length === 0) return [];
    const read = this.db.prepare('SELECT data FROM staged WHERE seq = ?').pluck();
    const write = this.db.prepare('UPDATE staged SET data = ? WHERE seq = ?');
    const drop = this.db.prepare('DELETE FROM staged WHERE seq = ?');
    const move = this.db.prepare('UPDATE staged SET seq = ? WHERE seq = ?');
    const after = this.db.prepare('SELECT seq FROM staged WHERE seq > ? ORDER BY seq').pluck();
    const removed: StagedPlace[] = [];
    this.db.transaction(() => {
      for (const { into, from } of merges) {
        const first = JSON.parse(read.get(into) as string) as NormalizedRecord;
        const later = JSON.parse(read.get(from) as string) as NormalizedRecord;
        write.run(JSON.stringify(mergeRecords(first, later)), into);
        drop.run(from);
        const { file, row, line, input, key } = later;
        removed.push({ file, row, line, input, key });
      }
      // Renumbered in order: each row moves down to a number already freed, never onto another.
      const lowest = Math.min(...merges.map((m) => m.from));
      let next = lowest;
      for (const seq of after.all(lowest) as number[]) move.run(next++, seq);
      this.count = next - 1;
    })();
    this.sealed = true;
    return removed;
  }

  /** Unique identities staged so far. */
  get size(): number {
    return this.count;
  }

  /** Stages a batch in one transaction; a result per entry, in order. */
  add(entries: readonly StageEntry[]): StageResult[] {
    if (this.sealed) throw new Error('the staging was renumbered by mergeApart: nothing more can be staged');
    for (const entry of entries) if (!this.files.has(entry.input)) this.files.set(entry.input, entry.file);
    const results = this.addMany(entries);
    this.wake();
    return results;
  }

  /** Nothing more will be staged (the inputs are read, or reading stopped): follow() ends. */
  end(): void {
    this.filling = false;
    this.wake();
  }

  get keysOnly(): boolean {
    return this.options.keysOnly === true;
  }

  /**
   * The source text of a staged record, as read (for its rejected file when it ends rejected or
   * failed at load); undefined when keys-only or not staged.
   */
  sourceOf(record: Pick<NormalizedRecord, 'input' | 'row'>): string | undefined {
    return this.source?.get(record.input, record.row) as string | undefined;
  }

  /**
   * Staged records in first-seen order, in batches of `size` and, past the first record, at most
   * `maxChars` of staged JSON (`pages`: with that length). Not available when keys-only.
   */
  *batches(size: number, maxChars = Infinity): Generator<NormalizedRecord[]> {
    for (const page of this.pages(size, maxChars)) yield page.records;
  }

  *pages(size: number, maxChars = Infinity): Generator<{ records: NormalizedRecord[]; chars: number }> {
    if (!this.page) throw new Error('a keys-only staging keeps no records to load');
    let after = 0;
    for (;;) {
      const batch = this.pageAfter(after, size, maxChars);
      if (!batch) return;
      after = batch.last;
      yield batch;
    }
  }

  /**
   * `batches` while the staging still fills (a run that loads while it reads): a batch is handed
   * out once `size` records past the last one are staged, or reading ended, so batches (and the
   * chunks cut from them) are the same as once everything is staged. A record handed out and then
   * merged with a later duplicate is remembered: `mergedAfterSent` gives it back, whole.
   */
  async *follow(size: number, maxChars = Infinity): AsyncGenerator<NormalizedRecord[]> {
    if (!this.page) throw new Error('a keys-only staging keeps no records to load');
    for (;;) {
      while (this.filling && this.count - this.taken < size) {
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
      const batch = this.pageAfter(this.taken, size, maxChars);
      if (!batch) return;
      this.taken = batch.last;
      yield batch.records;
    }
  }

  /** Records follow() handed out that a later duplicate merged into, as they are now; once. */
  *mergedAfterSent(size: number): Generator<NormalizedRecord[]> {
    const seqs = [...this.mergedAfterTaken].sort((a, b) => a - b);
    this.mergedAfterTaken.clear();
    for (let at = 0; at < seqs.length; at += size) {
      const records: NormalizedRecord[] = [];
      for (const seq of seqs.slice(at, at + size)) {
        const row = this.page!.get(seq - 1, 1) as { data: string };
        records.push(JSON.parse(row.data) as NormalizedRecord);
      }
      yield records;
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** Up to `size` records after `after`, at most `maxChars` of JSON past the first; undefined at the end. */
  private pageAfter(after: number, size: number, maxChars: number) {
    const rows = this.page!.all(after, size) as { seq: number; data: string }[];
    if (rows.length === 0) return undefined;
    let count = 0;
    let chars = 0;
    while (count < rows.length && (count === 0 || chars + rows[count]!.data.length <= maxChars)) {
      chars += rows[count]!.data.length;
      count += 1;
    }
    return {
      last: rows[count - 1]!.seq,
      chars,
      records: rows.slice(0, count).map((row) => JSON.parse(row.data) as NormalizedRecord),
    };
  }

  /** Every staged identity key in first-seen order, either mode: from its column, no record parsed. */
  *keys(): Generator<string> {
    const table = this.keysOnly ? 'identities' : 'staged';
    yield* this.db.prepare(`SELECT key FROM ${table} ORDER BY seq`).pluck().iterate() as Iterable<string>;
  }

  /** Where each staged record came from, in first-seen order, in batches; in either mode. */
  *places(size: number): Generator<StagedPlace[]> {
    if (!this.placesInOrder) {
      for (const batch of this.batches(size)) {
        yield batch.map(({ file, row, line, input, key }) => ({ file, row, line, input, key }));
      }
      return;
    }
    let batch: StagedPlace[] = [];
    const rows = this.placesInOrder.iterate() as Iterable<Omit<StagedPlace, 'file'>>;
    for (const { input, row, line, key } of rows) {
      batch.push({ file: this.files.get(input)!, row, line, input, key });
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /** The load took the next `count` records, in first-seen order (each then gets its outcome there). */
  reach(count: number): void {
    this.reached += count;
  }

  /**
   * Where each staged record the load never took came from, in first-seen order: what a run that
   * stopped early (or never loaded) left pending.
   */
  *unreached(size: number): Generator<StagedPlace[]> {
    let batch: StagedPlace[] = [];
    const rows: Iterable<StagedPlace> = this.placesAfter
      ? this.unreachedKeys()
      : (function* (page: Database.Statement, after: number) {
          for (;;) {
            const found = page.all(after, size) as { seq: number; data: string }[];
            if (found.length === 0) return;
            after = found[found.length - 1]!.seq;
            for (const { data } of found) {
              const { file, row, line, input, key } = JSON.parse(data) as NormalizedRecord;
              yield { file, row, line, input, key };
            }
          }
        })(this.page!, this.reached);
    for (const place of rows) {
      batch.push(place);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  private *unreachedKeys(): Generator<StagedPlace> {
    const rows = this.placesAfter!.iterate(this.reached) as Iterable<Omit<StagedPlace, 'file'>>;
    for (const row of rows) yield { ...row, file: this.files.get(row.input)! };
  }

  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
