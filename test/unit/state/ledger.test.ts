import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_FILE, openLedger, scopeId, type PendingCreate } from '../../../src/state/index.js';
import { ALICE, BOB, ledgerFixture } from './fixtures/ledgers.js';

const ledgers = ledgerFixture('ledger');
const open = ledgers.open;

function chunk(idempotencyKey: string, count: number, prefix = idempotencyKey): PendingCreate {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.org`);
  return {
    runId: 'run-1',
    idempotencyKey,
    keys,
    hashes: keys.map((_, i) => `hash-${prefix}-${i}`),
    body: JSON.stringify({ contacts: keys.map((email) => ({ contact_emails: [{ email }] })) }),
  };
}

describe('ledger scope round trips', () => {
  it('stores contacts and finds them in any number, long keys included', () => {
    const scope = open().scope(ALICE);
    const longKey = `name:${'Åsa Lindqvist-Øberg '.repeat(40)}|company:Nordic Ventures`;
    scope.putContacts([
      { key: 'ada@example.org', contactId: 'c1', hash: 'h1' },
      { key: longKey, contactId: 'c2', hash: 'h2' },
    ]);
    const found = scope.getContacts(['ada@example.org', longKey, 'missing@example.org']);
    expect(found).toEqual(
      new Map([
        ['ada@example.org', { contactId: 'c1', hash: 'h1' }],
        [longKey, { contactId: 'c2', hash: 'h2' }],
      ]),
    );
    scope.putContacts([{ key: 'ada@example.org', contactId: 'c1', hash: 'h1-changed' }]);
    expect(scope.getContacts(['ada@example.org']).get('ada@example.org')?.hash).toBe('h1-changed');
    scope.forgetContact('ada@example.org');
    expect(scope.getContacts(['ada@example.org', longKey]).size).toBe(1);
    expect(scope.getContacts([]).size).toBe(0);
  });

  it('stores groups, custom fields and reminders', () => {
    const scope = open().scope(ALICE);
    scope.putGroup('Customers', 'g1', 'gh1');
    scope.putGroup('Investors', 'g2', 'gh2');
    scope.putGroup('Customers', 'g1', 'gh1b');
    scope.putCustomField('Tier', 'f1', 'fh1');
    scope.putReminder('ada@example.org#0', 'r1', 'rh1');
    expect(scope.getGroups()).toEqual(
      new Map([
        ['Customers', { id: 'g1', hash: 'gh1b' }],
        ['Investors', { id: 'g2', hash: 'gh2' }],
      ]),
    );
    expect(scope.getCustomFields()).toEqual(new Map([['Tier', { id: 'f1', hash: 'fh1' }]]));
    expect(scope.getReminders(['ada@example.org#0', 'ada@example.org#1'])).toEqual(
      new Map([['ada@example.org#0', { id: 'r1', hash: 'rh1' }]]),
    );
  });

  // How fast: test/perf/ledger-lookup.test.ts (npm run test:perf).
  it('looks up 200,000 keys and writes 100 rows in one transaction', () => {
    const scope = open().scope(ALICE);
    const entries = Array.from({ length: 200_000 }, (_, i) => ({
      key: `person-${i}@example.org`,
      contactId: `c${i}`,
      hash: `h${i}`,
    }));
    scope.putContacts(entries);
    const keys = entries.map((entry) => entry.key);
    keys.push('nobody@example.org');
    const found = scope.getContacts(keys);
    expect(found.size).toBe(200_000);
    expect(found.get('person-123456@example.org')).toEqual({ contactId: 'c123456', hash: 'h123456' });

    const hundred = entries.slice(0, 100).map((entry) => ({ ...entry, hash: `${entry.hash}-v2` }));
    scope.putContacts(hundred);
    expect(scope.getContacts(['person-99@example.org']).get('person-99@example.org')?.hash).toBe('h99-v2');
  });
});

describe('scope isolation', () => {
  it('keeps two users on one target and one user on two targets apart', () => {
    const ledger = open();
    const aliceOther = scopeId('https://other.example.com', 'key-alice-1f9e8d7c6b5a');
    const scopes = [ledger.scope(ALICE), ledger.scope(BOB), ledger.scope(aliceOther)];
    scopes.forEach((scope, i) => {
      scope.putContacts([{ key: 'same@example.org', contactId: `contact-${i}`, hash: `hash-${i}` }]);
      scope.putGroup('Customers', `group-${i}`, 'h');
      scope.putCustomField('Tier', `field-${i}`, 'h');
      scope.putReminder('same@example.org#0', `reminder-${i}`, 'h');
      scope.beginCreate(chunk('chunk-1', 1, `scope${i}`));
    });
    scopes.forEach((scope, i) => {
      expect(scope.getContacts(['same@example.org']).get('same@example.org')?.contactId).toBe(`contact-${i}`);
      expect(scope.getGroups().get('Customers')?.id).toBe(`group-${i}`);
      expect(scope.getCustomFields().get('Tier')?.id).toBe(`field-${i}`);
      expect(scope.getReminders(['same@example.org#0']).get('same@example.org#0')?.id).toBe(`reminder-${i}`);
      expect(scope.pendingCreates().map((pending) => pending.keys[0])).toEqual([`scope${i}-0@example.org`]);
    });
    scopes[1]!.completeCreate('chunk-1', ['bob-id']);
    expect(scopes[0]!.pendingCreates()).toHaveLength(1);
    expect(scopes[0]!.getContacts(['scope1-0@example.org']).size).toBe(0);
    scopes[2]!.forgetContact('same@example.org');
    expect(scopes[0]!.getContacts(['same@example.org']).size).toBe(1);
  });
});

describe('pending creates', () => {
  it('are recorded before sending, listed oldest first, and survive a reopen', () => {
    const dir = ledgers.dir();
    const first = openLedger({ dir });
    const scope = first.scope(ALICE);
    const chunks = [chunk('run1-c2', 3), chunk('run1-c1', 2), chunk('run1-c3', 1)];
    for (const pending of chunks) scope.beginCreate(pending);
    scope.beginCreate(chunks[0]!); // a resumed run repeating itself
    first.close();

    const reopened = open(dir).scope(ALICE);
    expect(reopened.pendingCreates()).toEqual(chunks);
    reopened.completeCreate('run1-c1', ['id-a', 'id-b']);
    reopened.abandonCreate('run1-c3');
    reopened.abandonCreate('never-begun');
    expect(reopened.pendingCreates().map((pending) => pending.idempotencyKey)).toEqual(['run1-c2']);
    expect(reopened.getContacts(chunks[1]!.keys)).toEqual(
      new Map([
        ['run1-c1-0@example.org', { contactId: 'id-a', hash: 'hash-run1-c1-0' }],
        ['run1-c1-1@example.org', { contactId: 'id-b', hash: 'hash-run1-c1-1' }],
      ]),
    );
    expect(reopened.getContacts(chunks[2]!.keys).size).toBe(0);
  });

  it('beginCreate records chunks in order, repeats as a no-op, and refuses a clash or a bad shape', () => {
    const dir = ledgers.dir();
    const first = openLedger({ dir });
    const scope = first.scope(ALICE);
    const batch = [chunk('run2-c0', 2), chunk('run2-c1', 3), chunk('run2-c2', 1)];
    for (const pending of batch) scope.beginCreate(pending);
    for (const pending of batch.slice(1)) scope.beginCreate(pending); // recorded already: nothing changes
    // Another chunk under a key that is pending, or keys and hashes that do not pair: nothing recorded.
    expect(() => scope.beginCreate({ ...chunk('run2-c0', 2), body: '{}' })).toThrow(
      /different pending create/,
    );
    expect(() => scope.beginCreate({ ...chunk('run2-c5', 2), hashes: ['x'] })).toThrow(/2 keys but 1 hashes/);
    first.close();
    const reopened = open(dir).scope(ALICE);
    expect(reopened.pendingCreates()).toEqual(batch);
    // A chunk begun with its batch and never sent is forgotten; the others stay to be completed.
    reopened.abandonCreate('run2-c2');
    reopened.completeCreate('run2-c0', ['id-0', 'id-1']);
    expect(reopened.pendingCreates().map((pending) => pending.idempotencyKey)).toEqual(['run2-c1']);
  });

  it('refuses a key reused for another chunk and malformed chunks', () => {
    const scope = open().scope(ALICE);
    scope.beginCreate(chunk('k1', 2));
    expect(() => scope.beginCreate({ ...chunk('k1', 2), body: '{}' })).toThrow(
      expect.objectContaining({
        code: 'state_error',
        message: expect.stringMatching(/different pending create/),
      }),
    );
    expect(() => scope.beginCreate({ ...chunk('k2', 2), hashes: ['one'] })).toThrow(/2 keys but 1 hashes/);
    expect(() => scope.beginCreate({ ...chunk('k3', 1), keys: [], hashes: [] })).toThrow(/no identity keys/);
    expect(() =>
      scope.beginCreate({
        runId: 'run-1',
        idempotencyKey: 'k4',
        keys: ['a', 'a'],
        hashes: ['1', '2'],
        body: '',
      }),
    ).toThrow(/identity key twice/);
    expect(scope.pendingCreates().map((pending) => pending.idempotencyKey)).toEqual(['k1']);
  });

  it('completeCreate puts all contacts and removes the row, or changes nothing', () => {
    const dir = ledgers.dir();
    const scope = open(dir).scope(ALICE);
    const pending = chunk('atomic', 5);
    scope.beginCreate(pending);

    expect(() => scope.completeCreate('atomic', ['only', 'three', 'ids'])).toThrow(
      expect.objectContaining({
        code: 'target_inconsistent',
        message: expect.stringMatching(/answered 3 ids for the 5 contacts/),
      }),
    );
    // One id for two contacts of the answer.
    expect(() => scope.completeCreate('atomic', ['i0', 'i1', 'i0', 'i3', 'i4'])).toThrow(
      expect.objectContaining({
        code: 'target_inconsistent',
        message: expect.stringMatching(/answered id i0 for different contacts/),
      }),
    );
    expect(scope.getContacts(pending.keys).size).toBe(0);
    expect(() => scope.completeCreate('unknown', ['x'])).toThrow(/no pending create/);

    // A failure on the fourth contact, inside the transaction: nothing of it may remain.
    const saboteur = new Database(path.join(dir, LEDGER_FILE));
    saboteur.exec(`CREATE TRIGGER fail_fourth BEFORE INSERT ON contacts WHEN NEW.key = 'atomic-3@example.org'
                   BEGIN SELECT RAISE(ABORT, 'disk gremlin'); END`);
    expect(() => scope.completeCreate('atomic', ['i0', 'i1', 'i2', 'i3', 'i4'])).toThrow(
      expect.objectContaining({ code: 'state_error', message: expect.stringMatching(/disk gremlin/) }),
    );
    expect(scope.getContacts(pending.keys).size).toBe(0);
    expect(scope.pendingCreates()).toEqual([pending]);

    saboteur.exec('DROP TRIGGER fail_fourth');
    saboteur.close();
    scope.completeCreate('atomic', ['i0', 'i1', 'i2', 'i3', 'i4']);
    expect([...scope.getContacts(pending.keys).values()].map((entry) => entry.contactId)).toEqual([
      'i0',
      'i1',
      'i2',
      'i3',
      'i4',
    ]);
    expect(scope.pendingCreates()).toEqual([]);
    expect(() => scope.completeCreate('atomic', ['i0', 'i1', 'i2', 'i3', 'i4'])).toThrow(/no pending create/);
  });

  it('completeCreate refuses an id that already belongs to another identity, and takes its own again', () => {
    const dir = ledgers.dir();
    const scope = open(dir).scope(ALICE);
    scope.beginCreate(chunk('first', 2));
    scope.completeCreate('first', ['id-a', 'id-b']);
    const second = chunk('second', 2);
    scope.beginCreate(second);
    expect(() => scope.completeCreate('second', ['id-new', 'id-b'])).toThrow(
      expect.objectContaining({
        code: 'target_inconsistent',
        message: expect.stringMatching(/answered id id-b for different contacts .*contact #2.*loaded before/),
      }),
    );
    // Nothing of that answer recorded; the chunk stays pending for a rerun to resend.
    expect(scope.getContacts(second.keys).size).toBe(0);
    expect(scope.pendingCreates().map((p) => p.idempotencyKey)).toEqual(['second']);
    expect(scope.getContacts(['first-1@example.org']).get('first-1@example.org')?.contactId).toBe('id-b');
    // The same identity answered its own id again (a resumed create) is no conflict.
    scope.beginCreate(chunk('again', 1, 'first'));
    scope.completeCreate('again', ['id-a']);
  });

  it('putContacts is all or nothing', () => {
    const dir = ledgers.dir();
    const scope = open(dir).scope(ALICE);
    const saboteur = new Database(path.join(dir, LEDGER_FILE));
    saboteur.exec(`CREATE TRIGGER fail_last BEFORE INSERT ON contacts WHEN NEW.key = 'k99'
                   BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    saboteur.close();
    const entries = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, contactId: `c${i}`, hash: 'h' }));
    expect(() => scope.putContacts(entries)).toThrow(expect.objectContaining({ code: 'state_error' }));
    expect(scope.getContacts(entries.map((entry) => entry.key)).size).toBe(0);
  });
});

describe('runs', () => {
  it('records starts and reports, newest first, per scope', () => {
    const dir = ledgers.dir();
    const ledger = openLedger({ dir });
    const base = { scopeId: ALICE, pipeline: 'generic', inputs: ['a.csv'], dryRun: false };
    ledger.startRun({ ...base, runId: 'r1', startedAt: '2024-05-01T10:00:00.000Z' });
    ledger.startRun({ ...base, runId: 'r2', startedAt: '2024-05-02T10:00:00.000Z' });
    ledger.startRun({ ...base, runId: 'r3', startedAt: '2024-05-03T10:00:00.000Z' });
    ledger.startRun({ ...base, scopeId: BOB, runId: 'bob-1', startedAt: '2024-05-04T10:00:00.000Z' });
    ledger.finishRun('r1', { runId: 'r1', status: 'completed', finishedAt: '2024-05-01T10:05:00.000Z' });
    ledger.finishRun('r2', { runId: 'r2', status: 'interrupted', finishedAt: '2024-05-02T10:01:00.000Z' });
    expect(() => ledger.startRun({ ...base, runId: 'r1', startedAt: '2024-05-05T00:00:00.000Z' })).toThrow(
      expect.objectContaining({ code: 'state_error' }),
    );
    expect(() => ledger.finishRun('nope', {})).toThrow(/no run nope/);
    ledger.close();

    const reopened = open(dir);
    expect(reopened.lastRuns(ALICE, 10)).toEqual([
      { runId: 'r3', status: 'running', startedAt: '2024-05-03T10:00:00.000Z' },
      {
        runId: 'r2',
        status: 'interrupted',
        startedAt: '2024-05-02T10:00:00.000Z',
        finishedAt: '2024-05-02T10:01:00.000Z',
      },
      {
        runId: 'r1',
        status: 'completed',
        startedAt: '2024-05-01T10:00:00.000Z',
        finishedAt: '2024-05-01T10:05:00.000Z',
      },
    ]);
    expect(reopened.lastRuns(ALICE, 1).map((run) => run.runId)).toEqual(['r3']);
    expect(reopened.lastRuns(BOB, 10).map((run) => run.runId)).toEqual(['bob-1']);
  });
});

describe('closing', () => {
  it('turns use after close into a state_error and closes twice quietly', () => {
    const ledger = openLedger({ dir: ledgers.dir() });
    const scope = ledger.scope(ALICE);
    ledger.close();
    ledger.close();
    expect(() => scope.getGroups()).toThrow(expect.objectContaining({ code: 'state_error' }));
  });
});
