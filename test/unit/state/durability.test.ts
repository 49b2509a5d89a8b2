import Database from 'better-sqlite3';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ScopeStatements, SqliteLedgerScope } from '../../../src/state/ledger-scope.js';
import { migrate } from '../../../src/state/migrations.js';
import { LEDGER_FILE, openLedger } from '../../../src/state/index.js';
import { tempDirs } from './fixtures/temp-dir.js';

const dirs = tempDirs('ledger-durability');
const databases: Database.Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) if (db.open) db.close();
});
afterAll(() => dirs.cleanup());

const FULL = 2;
const SCOPE = 'scope-durability';

/** A scope on a connection the test can inspect, configured as openLedger configures its own. */
function scopeOnInspectableConnection(): { db: Database.Database; scope: SqliteLedgerScope; dir: string } {
  const dir = dirs.make();
  const file = path.join(dir, LEDGER_FILE);
  const db = new Database(file);
  databases.push(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  migrate(db, file);
  return { db, scope: new SqliteLedgerScope(new ScopeStatements(db), SCOPE, file), dir };
}

const level = (db: Database.Database) => Number(db.pragma('synchronous', { simple: true }));

const pending = (key: string) => ({
  runId: 'run-1',
  idempotencyKey: key,
  keys: [`${key}-a@example.org`, `${key}-b@example.org`],
  hashes: ['h-a', 'h-b'],
  body: JSON.stringify({ contacts: [{ full_name: 'A' }, { full_name: 'B' }] }),
});

/**
 * Only the commit that must be on disk before a request leaves (beginCreate) pays for an fsync;
 * completions and updates commit without one and leave the connection as they found it.
 */
describe('ledger durability levels', () => {
  it('completeCreate and putContacts leave the connection at synchronous = FULL', () => {
    const { db, scope } = scopeOnInspectableConnection();
    scope.beginCreate(pending('run-c0'));
    expect(level(db)).toBe(FULL);
    scope.completeCreate('run-c0', ['id-a', 'id-b']);
    expect(level(db)).toBe(FULL);
    scope.putContacts([{ key: 'run-c0-a@example.org', contactId: 'id-a', hash: 'h-a2' }]);
    expect(level(db)).toBe(FULL);
  });

  it('beginCreate commits at synchronous = FULL (on disk before its request leaves)', () => {
    const { db, scope } = scopeOnInspectableConnection();
    // Whatever it sets on the connection while it records (completeCreate sets NORMAL, then back).
    const pragmas = vi.spyOn(db, 'pragma');
    for (const key of ['run-c5', 'run-c6', 'run-c7']) scope.beginCreate(pending(key));
    expect(pragmas.mock.calls.filter(([text]) => /synchronous\s*=/.test(text))).toEqual([]);
    expect(level(db)).toBe(FULL);
    expect(scope.pendingCreates().map((p) => p.idempotencyKey)).toEqual(['run-c5', 'run-c6', 'run-c7']);
    // The same spy sees completeCreate relax the level for its own commit.
    scope.completeCreate('run-c5', ['id-a', 'id-b']);
    expect(pragmas.mock.calls.some(([text]) => text === 'synchronous = NORMAL')).toBe(true);
  });

  it('restores the level when the commit fails', () => {
    const { db, scope } = scopeOnInspectableConnection();
    expect(() => scope.completeCreate('never-begun', ['x'])).toThrow(/no pending create/);
    expect(level(db)).toBe(FULL);
    db.pragma('synchronous = OFF');
    expect(() => scope.completeCreate('never-begun', ['x'])).toThrow(/no pending create/);
    // It restores what it found, not a fixed level.
    expect(level(db)).toBe(0);
  });

  it('what the relaxed commits wrote is in the file for the next process', () => {
    const { db, scope, dir } = scopeOnInspectableConnection();
    scope.beginCreate(pending('run-c1'));
    scope.completeCreate('run-c1', ['id-1a', 'id-1b']);
    scope.putContacts([{ key: 'run-c1-b@example.org', contactId: 'id-1b', hash: 'h-b2' }]);
    // No close, no checkpoint: another connection reads the WAL as a restarted process would.
    const reopened = openLedger({ dir });
    try {
      const other = reopened.scope(SCOPE);
      expect(other.pendingCreates()).toEqual([]);
      expect(other.getContacts(['run-c1-a@example.org', 'run-c1-b@example.org'])).toEqual(
        new Map([
          ['run-c1-a@example.org', { contactId: 'id-1a', hash: 'h-a' }],
          ['run-c1-b@example.org', { contactId: 'id-1b', hash: 'h-b2' }],
        ]),
      );
    } finally {
      reopened.close();
    }
    expect(db.open).toBe(true);
  });
});
