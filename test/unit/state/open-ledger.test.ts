import Database from 'better-sqlite3';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LEDGER_FILE, openLedger, scopeId } from '../../../src/state/index.js';
import { LEDGER_APPLICATION_ID, MIGRATIONS, migrate, userVersion } from '../../../src/state/migrations.js';
import { tempDirs } from './fixtures/temp-dir.js';

const dirs = tempDirs('ledger-open');
afterAll(() => dirs.cleanup());

function stateError(pattern: RegExp) {
  return expect.objectContaining({
    name: 'ImportError',
    code: 'state_error',
    message: expect.stringMatching(pattern),
  });
}

describe('openLedger', () => {
  it('creates the directory and a WAL ledger at the current schema version', () => {
    const dir = path.join(dirs.make(), 'nested', '.contact-import');
    const ledger = openLedger({ dir });
    expect(ledger.file).toBe(path.join(dir, LEDGER_FILE));
    ledger.close();
    const db = new Database(ledger.file, { readonly: true });
    expect(userVersion(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('application_id', { simple: true })).toBe(LEDGER_APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('keeps data across close and reopen', () => {
    const dir = dirs.make();
    const scope = scopeId('https://api.example.com', 'k-123456');
    const first = openLedger({ dir });
    first.scope(scope).putContacts([{ key: 'ada@example.org', contactId: 'c1', hash: 'h1' }]);
    first.scope(scope).putGroup('Customers', 'g1', 'gh');
    first.close();
    const second = openLedger({ dir });
    expect(second.scope(scope).getContacts(['ada@example.org']).get('ada@example.org')).toEqual({
      contactId: 'c1',
      hash: 'h1',
    });
    expect(second.scope(scope).getGroups().get('Customers')?.id).toBe('g1');
    second.close();
  });

  it('refuses a directory it cannot create', () => {
    const parent = dirs.make();
    const blocker = path.join(parent, 'state');
    writeFileSync(blocker, 'a file where the state directory should be');
    expect(() => openLedger({ dir: blocker })).toThrow(
      stateError(/Cannot create the state directory .*state/),
    );
  });

  it('refuses a file that is not a SQLite database', () => {
    const dir = dirs.make();
    writeFileSync(path.join(dir, LEDGER_FILE), 'name,email\nAda,ada@example.org\n'.repeat(200));
    expect(() => openLedger({ dir })).toThrow(stateError(/ledger\.sqlite.*not a database/));
  });

  it('refuses a SQLite database of something else', () => {
    const dir = dirs.make();
    const foreign = new Database(path.join(dir, LEDGER_FILE));
    foreign.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    foreign.close();
    expect(() => openLedger({ dir })).toThrow(stateError(/no ledger schema version/));

    const versioned = dirs.make();
    const other = new Database(path.join(versioned, LEDGER_FILE));
    other.pragma('user_version = 1');
    other.close();
    expect(() => openLedger({ dir: versioned })).toThrow(stateError(/another application/));
  });

  it('refuses a ledger of a contact-import before 1.0 and leaves it untouched', () => {
    const dir = dirs.make();
    const file = path.join(dir, LEDGER_FILE);
    const old = new Database(file);
    old.pragma('journal_mode = WAL'); // as every ledger is
    old.exec('CREATE TABLE contacts (scope_id TEXT, key TEXT, contact_id TEXT, hash TEXT)');
    old.pragma('application_id = 1128877105'); // "CIL1", the layout before 1.0
    old.pragma('user_version = 10');
    old.close();
    const before = readFileSync(file);
    expect(() => openLedger({ dir })).toThrow(
      stateError(/ledger\.sqlite is a ledger of a contact-import before 1\.0/),
    );
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a ledger written by a newer version and leaves it untouched', () => {
    const dir = dirs.make();
    openLedger({ dir }).close();
    const file = path.join(dir, LEDGER_FILE);
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    const before = readFileSync(file);
    expect(() => openLedger({ dir })).toThrow(
      stateError(new RegExp(`schema version ${MIGRATIONS.length + 1}.*newer`)),
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`).length : 0).toBe(0);
  });
});

describe('migrate', () => {
  it('applies the steps after the current version, in order, once', () => {
    const db = new Database(':memory:');
    migrate(db, 'memory', MIGRATIONS);
    expect(userVersion(db)).toBe(MIGRATIONS.length);
    const next = [
      ...MIGRATIONS,
      (d: Database.Database) => d.exec('ALTER TABLE contacts ADD COLUMN loaded_at TEXT'),
    ];
    migrate(db, 'memory', next);
    expect(userVersion(db)).toBe(MIGRATIONS.length + 1);
    migrate(db, 'memory', next); // already there: nothing to do (a second ALTER would throw)
    const columns = (db.prepare('PRAGMA table_info(contacts)').all() as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toContain('loaded_at');
    db.close();
  });

  it('rolls a failing step back with its version bump', () => {
    const db = new Database(':memory:');
    migrate(db, 'memory', MIGRATIONS);
    const broken = [
      ...MIGRATIONS,
      (d: Database.Database) => {
        d.exec('CREATE TABLE half_done (x)');
        throw new Error('step failed halfway');
      },
    ];
    expect(() => migrate(db, 'memory', broken)).toThrow(/halfway/);
    expect(userVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'half_done'").get()).toEqual({
      n: 0,
    });
    db.close();
  });
});
