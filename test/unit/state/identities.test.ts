import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_FILE } from '../../../src/state/index.js';
import { MIGRATIONS } from '../../../src/state/migrations.js';
import { ALICE, BOB, ledgerFixture } from './fixtures/ledgers.js';

const ledgers = ledgerFixture('identities');

describe('every identity a loaded record had', () => {
  it('finds the contact by any of them, per scope, the latest record taking an identity over', () => {
    const ledger = ledgers.open();
    const alice = ledger.scope(ALICE);
    alice.putIdentities([
      { contactId: 'c1', identities: ['phone:+14155552671', 'email:ada@example.com'] },
      { contactId: 'c2', identities: ['key:901'] },
    ]);
    expect(
      alice.contactsByIdentity(['email:ada@example.com', 'key:901', 'email:nobody@example.com']),
    ).toEqual(
      new Map([
        ['email:ada@example.com', 'c1'],
        ['key:901', 'c2'],
      ]),
    );
    alice.putIdentities([{ contactId: 'c3', identities: ['key:901'] }]);
    expect(alice.contactsByIdentity(['key:901']).get('key:901')).toBe('c3');
    expect(ledger.scope(BOB).contactsByIdentity(['phone:+14155552671']).size).toBe(0);
  });

  it('a ledger of the version before identities (v6) is filled with the keys it holds', () => {
    const dir = ledgers.dir();
    const file = path.join(dir, LEDGER_FILE);
    const db = new Database(file);
    for (const [version, step] of MIGRATIONS.slice(0, 6).entries()) {
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    }
    db.prepare('INSERT INTO contacts (scope_id, key, contact_id, hash) VALUES (?, ?, ?, ?)').run(
      ALICE,
      'phone:+14155552671',
      'c9',
      'h',
    );
    db.close();
    const scope = ledgers.open(dir).scope(ALICE);
    expect(scope.contactsByIdentity(['phone:+14155552671']).get('phone:+14155552671')).toBe('c9');
  });
});
