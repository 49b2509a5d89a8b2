import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Rows kept in memory before they go to disk: most runs never reach it. */
const IN_MEMORY = 20_000;
/** Rows written to disk per transaction. */
const BATCH = 1_000;

interface Entry {
  file: number;
  row: number;
  seq: number;
  text: string;
}

/**
 * Rows of a report that must come out sorted by file, then row, while they are found in another
 * order (read, then dedupe, then load): kept in memory up to IN_MEMORY rows, then in a scratch
 * SQLite file whose sort spills to disk, so memory stays flat however many rows there are. Rows
 * of one file and row keep the order they were added in. Files are ordered by name.
 */
export class IssueSpool {
  private readonly files = new Map<string, number>();
  private memory: Entry[] = [];
  private seq = 0;
  private dir: string | undefined;
  private db: Database.Database | undefined;
  private insertMany: ((entries: Entry[]) => void) | undefined;

  /** `workDir`: the run's scratch folder (state/run-work.ts), where the rows spill. */
  constructor(private readonly workDir: string) {}

  add(file: string, row: number, text: string): void {
    let id = this.files.get(file);
    if (id === undefined) this.files.set(file, (id = this.files.size));
    this.memory.push({ file: id, row, seq: this.seq++, text });
    if (this.memory.length >= (this.db ? BATCH : IN_MEMORY)) this.spill();
  }

  /** Every row added, sorted; the spool is empty afterwards. */
  *sorted(): Generator<string> {
    const names = [...this.files.keys()].sort();
    if (!this.db) {
      const rank = new Map(names.map((name, i) => [this.files.get(name)!, i]));
      const entries = this.memory;
      this.memory = [];
      entries.sort((a, b) => rank.get(a.file)! - rank.get(b.file)! || a.row - b.row || a.seq - b.seq);
      for (const entry of entries) yield entry.text;
      return;
    }
    this.spill();
    const select = this.db.prepare('SELECT text FROM spool WHERE file = ? ORDER BY row, seq').pluck();
    for (const name of names) {
      for (const text of select.iterate(this.files.get(name)!)) yield text as string;
    }
  }

  private spill(): void {
    if (!this.db) {
      this.dir = mkdtempSync(join(this.workDir, 'issues-'));
      const db = new Database(join(this.dir, 'spool.sqlite'));
      // Scratch data for one run: durability would only cost time.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.pragma('cache_size = -8000');
      db.exec('CREATE TABLE spool (seq INTEGER PRIMARY KEY, file INTEGER, row INTEGER, text TEXT)');
      const insert = db.prepare('INSERT INTO spool (seq, file, row, text) VALUES (?, ?, ?, ?)');
      this.insertMany = db.transaction((entries: Entry[]) => {
        for (const e of entries) insert.run(e.seq, e.file, e.row, e.text);
      });
      this.db = db;
    }
    if (this.memory.length === 0) return;
    this.insertMany!(this.memory);
    this.memory = [];
  }

  close(): void {
    this.memory = [];
    this.db?.close();
    this.db = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
