import type Database from 'better-sqlite3';
import { KeyLookup } from './key-lookup.js';

/**
 * What resolution decided for one record that was not sent yet: created afresh
 * (`contactId` absent) or an update of a contact already on the target. Kept per run so the same
 * command after a stop sends the record as decided instead of searching for it again.
 */
export interface Resolution {
  /** The record's identity key. */
  key: string;
  /** The hash of the write it was resolved for: a record changed since is resolved again. */
  hash: string;
  /** The contact it updates; absent: it is created. */
  contactId?: string;
  /** The e-mail searched: the one the contact was found by, or a create's first e-mail. */
  email?: string;
  /** The contact as the search answered it (the update's before-image), as the service sent it. */
  found?: unknown;
}

/** The run whose resolutions a new run took over, and how many records they cover. */
export interface AdoptedResolutions {
  runId: string;
  count: number;
}

type ResolutionRow = [string, string, string | null, string | null, string | null];

/** The statements of the `resolutions` table (migrations.ts). */
export class ResolutionStatements {
  private readonly upsert: Database.Statement;
  private readonly runs: Database.Statement;
  private readonly moveToRun: Database.Statement;
  private readonly clearScope: Database.Statement;
  private readonly lookup: KeyLookup<ResolutionRow>;

  constructor(private readonly db: Database.Database) {
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO resolutions (scope_id, run_id, key, hash, contact_id, email, found)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.runs = db.prepare(
      'SELECT run_id, count(*) AS n FROM resolutions WHERE scope_id = ? GROUP BY run_id ORDER BY n DESC',
    );
    this.moveToRun = db.prepare(
      'UPDATE OR REPLACE resolutions SET run_id = ? WHERE scope_id = ? AND run_id <> ?',
    );
    this.clearScope = db.prepare('DELETE FROM resolutions WHERE scope_id = ?');
    this.lookup = new KeyLookup(
      db,
      (keys) =>
        `SELECT key, hash, contact_id, email, found FROM resolutions
         WHERE scope_id = ? AND run_id = ? AND key IN (${keys})`,
    );
  }

  /** Records `resolutions` of `runId` in one transaction (a record resolved again replaces its row). */
  record(scopeId: string, runId: string, resolutions: readonly Resolution[]): void {
    this.db
      .transaction(() => {
        for (const r of resolutions) {
          const found = r.found === undefined ? null : JSON.stringify(r.found);
          this.upsert.run(scopeId, runId, r.key, r.hash, r.contactId ?? null, r.email ?? null, found);
        }
      })
      .immediate();
  }

  /**
   * Moves every resolution of the scope to `runId`, which continues the run that made them; returns
   * that run (the one holding the most rows when a crash left two) and the count, or undefined.
   */
  adopt(scopeId: string, runId: string): AdoptedResolutions | undefined {
    return this.db
      .transaction(() => {
        const rows = this.runs.all(scopeId) as { run_id: string; n: number }[];
        const earlier = rows.filter((r) => r.run_id !== runId);
        if (earlier.length === 0) return undefined;
        this.moveToRun.run(runId, scopeId, runId);
        const count = rows.reduce((n, r) => n + r.n, 0);
        return { runId: earlier[0]!.run_id, count };
      })
      .immediate();
  }

  /** The resolutions `runId` holds for `keys`. */
  get(scopeId: string, runId: string, keys: readonly string[]): Map<string, Resolution> {
    const found = new Map<string, Resolution>();
    for (const [key, hash, contactId, email, found_] of this.lookup.rows([scopeId, runId], keys)) {
      found.set(key, {
        key,
        hash,
        ...(contactId !== null ? { contactId } : {}),
        ...(email !== null ? { email } : {}),
        ...(found_ !== null ? { found: JSON.parse(found_) as unknown } : {}),
      });
    }
    return found;
  }

  clear(scopeId: string): void {
    this.clearScope.run(scopeId);
  }
}
