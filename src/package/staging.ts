import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeRecords } from './merge.js';
import type { NormalizedRecord } from '../normalize/record.js';

/** What a keys-only staging keeps of each record: where it came from, its raw text and its key. */
export type StagedPlace = Pick<NormalizedRecord, 'file' | 'row' | 'line' | 'input' | 'raw' | 'key'>;

export interface StageResult {
  /** Set when the record's identity was seen before in this run: where the first one came from. */
  duplicateOf?: { file: string; row: number };
}

/**
 * The run's working set, on disk so memory stays flat whatever the input size: one row per
 * identity key, in first-seen order, duplicates merged into it as they arrive.
 */
export class Staging {
  private readonly dir: string;
  private readonly db: Database.Database;
  private readonly claim: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;
  private readonly update: Database.Statement;
  private readonly page: Database.Statement;
  private readonly addMany: (entries: { key: string; json: string }[]) => StageResult[];
  private count = 0;

  /**
   * `keysOnly`: the records' texts are StagedPlace JSON and a duplicate is not merged; only
   * `places` reads them back. For a dry run that only counts identities (and reports what it did
   * not reach when interrupted).
   */
  constructor(private readonly options: { keysOnly?: boolean } = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'contact-import-stage-'));
    this.db = new Database(join(this.dir, 'stage.sqlite'));
    // Scratch data, rebuilt by every run: durability would only cost time.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    // 8 MB of page cache: the identity index outgrows any fixed cache on large inputs anyway (the
    // OS file cache serves the rest), and every MB here is resident for the whole run.
    this.db.pragma('cache_size = -8000');
    // Identities in their own narrow table: the unique index stays small and cheap to insert into,
    // and the records themselves are appended in first-seen order.
    this.db.exec(
      'CREATE TABLE staged (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);' +
        'CREATE TABLE identities (key TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.claim = this.db.prepare(
      'INSERT INTO identities (key, seq) VALUES (?, ?) ON CONFLICT(key) DO NOTHING',
    );
    this.insert = this.db.prepare('INSERT INTO staged (seq, data) VALUES (?, ?)');
    this.select = this.db.prepare(
      'SELECT s.seq, s.data FROM identities i JOIN staged s ON s.seq = i.seq WHERE i.key = ?',
    );
    this.update = this.db.prepare('UPDATE staged SET data = ? WHERE seq = ?');
    this.page = this.db.prepare('SELECT seq, data FROM staged WHERE seq > ? ORDER BY seq LIMIT ?');
    this.addMany = this.db.transaction((entries: { key: string; json: string }[]) =>
      entries.map((e) => this.addOne(e.key, e.json)),
    );
  }

  /** Unique identities staged so far. */
  get size(): number {
    return this.count;
  }

  /**
   * Stages a batch in one transaction: `texts[i]` is the JSON of the record keyed `records[i].key`
   * (serialized where it was normalized, maybe in a worker; a StagedPlace when keys-only).
   */
  add(records: readonly Pick<NormalizedRecord, 'key'>[], texts: readonly string[]): StageResult[] {
    return this.addMany(records.map((r, i) => ({ key: r.key, json: texts[i]! })));
  }

  private addOne(key: string, json: string): StageResult {
    if (this.claim.run(key, this.count + 1).changes === 1) {
      this.count += 1;
      this.insert.run(this.count, json);
      return {};
    }
    const existing = this.select.get(key) as { seq: number; data: string };
    const first = JSON.parse(existing.data) as NormalizedRecord;
    if (this.options.keysOnly) return { duplicateOf: { file: first.file, row: first.row } };
    this.update.run(JSON.stringify(mergeRecords(first, JSON.parse(json) as NormalizedRecord)), existing.seq);
    return { duplicateOf: { file: first.file, row: first.row } };
  }

  get keysOnly(): boolean {
    return this.options.keysOnly === true;
  }

  /**
   * Staged records in first-seen order, in batches of `size` records and, past the first record,
   * at most `maxChars` characters of staged JSON (wide records make small batches). Not available
   * when keys-only.
   */
  batches(size: number, maxChars = Infinity): Generator<NormalizedRecord[]> {
    if (this.keysOnly) throw new Error('a keys-only staging keeps no records to load');
    return this.pages<NormalizedRecord>(size, maxChars);
  }

  /** Where each staged record came from, in first-seen order, in batches; in either mode. */
  places(size: number): Generator<StagedPlace[]> {
    return this.pages<StagedPlace>(size);
  }

  private *pages<T>(size: number, maxChars = Infinity): Generator<T[]> {
    let after = 0;
    for (;;) {
      const rows = this.page.all(after, size) as { seq: number; data: string }[];
      if (rows.length === 0) return;
      let count = 0;
      let chars = 0;
      while (count < rows.length && (count === 0 || chars + rows[count]!.data.length <= maxChars)) {
        chars += rows[count]!.data.length;
        count += 1;
      }
      after = rows[count - 1]!.seq;
      yield rows.slice(0, count).map((row) => JSON.parse(row.data) as T);
    }
  }

  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
