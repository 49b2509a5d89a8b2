import { describe, expect, it } from 'vitest';
import { ALICE, BOB, ledgerFixture } from './fixtures/ledgers.js';

/** What resolution decided for records not sent yet, kept per run until a run completes. */
const ledgers = ledgerFixture('resolutions');
const open = ledgers.open;

const create = (key: string) => ({ key, hash: `h-${key}`, email: `${key}@example.org` });
const update = (key: string, contactId: string) => ({
  key,
  hash: `h-${key}`,
  contactId,
  email: `${key}@example.org`,
  found: { id: contactId, job_title: 'Before' },
});

describe('resolutions', () => {
  it('round-trips creates and updates (with the before-image) per run, and survives reopening', () => {
    const dir = ledgers.dir();
    const first = open(dir);
    first.scope(ALICE).recordResolutions('run-1', [create('a'), update('b', 'c-1')]);
    first.close();
    const again = open(dir).scope(ALICE);
    const got = again.getResolutions('run-1', ['a', 'b', 'x']);
    expect([...got.keys()].sort()).toEqual(['a', 'b']);
    expect(got.get('a')).toEqual(create('a'));
    expect(got.get('b')).toEqual(update('b', 'c-1'));
    // Another run holds none of them until it takes them over.
    expect(again.getResolutions('run-2', ['a', 'b']).size).toBe(0);
  });

  it('a key resolved again replaces its row', () => {
    const scope = open().scope(ALICE);
    scope.recordResolutions('run-1', [create('a')]);
    scope.recordResolutions('run-1', [update('a', 'c-9')]);
    expect(scope.getResolutions('run-1', ['a']).get('a')?.contactId).toBe('c-9');
  });

  it('a continuation takes them over: the run that made them and their count', () => {
    const scope = open().scope(ALICE);
    expect(scope.adoptResolutions('run-2')).toBeUndefined();
    scope.recordResolutions('run-1', [create('a'), create('b'), update('c', 'c-3')]);
    expect(scope.adoptResolutions('run-2')).toEqual({ runId: 'run-1', count: 3 });
    expect(scope.getResolutions('run-1', ['a', 'b', 'c']).size).toBe(0);
    expect(scope.getResolutions('run-2', ['a', 'b', 'c']).size).toBe(3);
    // Taken over once: the same run asking again finds nothing earlier than itself.
    expect(scope.adoptResolutions('run-2')).toBeUndefined();
    // A third run takes over the second's, its own decisions included.
    scope.recordResolutions('run-2', [create('d')]);
    expect(scope.adoptResolutions('run-3')).toEqual({ runId: 'run-2', count: 4 });
  });

  it('are cleared per scope, and forgotten with the target', () => {
    const ledger = open();
    const alice = ledger.scope(ALICE);
    const bob = ledger.scope(BOB);
    alice.recordResolutions('run-1', [create('a')]);
    bob.recordResolutions('run-2', [create('a')]);
    alice.clearResolutions();
    expect(alice.getResolutions('run-1', ['a']).size).toBe(0);
    expect(bob.getResolutions('run-2', ['a']).size).toBe(1);
    bob.forgetTarget();
    expect(bob.getResolutions('run-2', ['a']).size).toBe(0);
  });

  it('looks up any number of keys', () => {
    const scope = open().scope(ALICE);
    const keys = Array.from({ length: 1234 }, (_, i) => `k${i}`);
    scope.recordResolutions('run-1', keys.map(create));
    expect(scope.getResolutions('run-1', keys).size).toBe(1234);
  });
});
