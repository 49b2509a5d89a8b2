import type Database from 'better-sqlite3';

/** The unfinished run a scope's next run continues (migrations.ts). */
export interface Continuation {
  /** The run that found the target empty and has not completed since. */
  runId: string;
  startedAt: string;
}

/**
 * The statements behind a scope's continuation row, the counts a continuation checks, and whether
 * the target honours `Idempotency-Key`.
 */
export class ContinuationStatements {
  private readonly select: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly countContacts: Database.Statement;
  private readonly selectIds: Database.Statement;
  private readonly selectReplays: Database.Statement;
  private readonly upsertReplays: Database.Statement;

  constructor(db: Database.Database) {
    this.select = db.prepare('SELECT run_id, started_at FROM continuations WHERE scope_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO continuations (scope_id, run_id, started_at) VALUES (?, ?, ?)
       ON CONFLICT (scope_id) DO UPDATE SET run_id = excluded.run_id, started_at = excluded.started_at`,
    );
    this.remove = db.prepare('DELETE FROM continuations WHERE scope_id = ?');
    this.countContacts = db.prepare('SELECT count(*) AS n FROM contacts WHERE scope_id = ?');
    this.selectIds = db.prepare('SELECT contact_id FROM contacts WHERE scope_id = ?').pluck(true);
    this.selectReplays = db.prepare('SELECT honoured FROM key_replays WHERE scope_id = ?').pluck(true);
    this.upsertReplays = db.prepare(
      `INSERT INTO key_replays (scope_id, honoured, seen_at) VALUES (?, ?, ?)
       ON CONFLICT (scope_id) DO UPDATE SET honoured = excluded.honoured, seen_at = excluded.seen_at`,
    );
  }

  get(scopeId: string): Continuation | undefined {
    const row = this.select.get(scopeId) as { run_id: string; started_at: string } | undefined;
    return row ? { runId: row.run_id, startedAt: row.started_at } : undefined;
  }

  begin(scopeId: string, continuation: Continuation): void {
    this.upsert.run(scopeId, continuation.runId, continuation.startedAt);
  }

  end(scopeId: string): void {
    this.remove.run(scopeId);
  }

  contactCount(scopeId: string): number {
    return (this.countContacts.get(scopeId) as { n: number }).n;
  }

  /** Whether the target was seen to honour `Idempotency-Key`; undefined when never seen. */
  keysHonoured(scopeId: string): boolean | undefined {
    const honoured = this.selectReplays.get(scopeId) as number | undefined;
    return honoured === undefined ? undefined : honoured === 1;
  }

  recordKeysHonoured(scopeId: string, honoured: boolean): void {
    this.upsertReplays.run(scopeId, honoured ? 1 : 0, new Date().toISOString());
  }

  contactIds(scopeId: string): Set<string> {
    return new Set(this.selectIds.all(scopeId) as string[]);
  }
}
