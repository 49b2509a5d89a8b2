import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openLedger, scopeId, type Ledger } from '../../../src/state/index.js';
import { tempDirs } from './fixtures/temp-dir.js';

const dirs = tempDirs('run-effects');
const opened: Ledger[] = [];
afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
});
afterAll(() => dirs.cleanup());

const open = (): Ledger => {
  const ledger = openLedger({ dir: dirs.make() });
  opened.push(ledger);
  return ledger;
};

const SCOPE = scopeId('https://api.example.com', 'key-undo-0a1b2c3d4e5f');

describe('the run journal', () => {
  it('journals a create with the run that began it, in the transaction that records its ids', () => {
    const scope = open().scope(SCOPE);
    scope.beginCreate({
      runId: 'run-1',
      idempotencyKey: 'run-1-c0',
      keys: ['a', 'b'],
      hashes: ['h1', 'h2'],
      body: '{}',
    });
    expect(scope.runEffects('run-1')).toEqual([]);
    scope.completeCreate('run-1-c0', ['id-a', 'id-b']);
    expect(scope.runEffects('run-1').map((e) => [e.kind, e.key, e.contactId])).toEqual([
      ['created', 'a', 'id-a'],
      ['created', 'b', 'id-b'],
    ]);
    // A create of another run is journaled under that run, not this one.
    scope.beginCreate({
      runId: 'run-2',
      idempotencyKey: 'run-2-c0',
      keys: ['c'],
      hashes: ['h3'],
      body: '{}',
    });
    scope.completeCreate('run-2-c0', ['id-c']);
    expect(scope.runEffects('run-1')).toHaveLength(2);
    expect(scope.runEffects('run-2').map((e) => [e.kind, e.key, e.contactId])).toEqual([
      ['created', 'c', 'id-c'],
    ]);
  });

  it('keeps the first before-image of an update, and drops one whose update was refused', () => {
    const scope = open().scope(SCOPE);
    const update = (detail: unknown) => ({ contactId: 'id-x', key: 'x', file: 'a.csv', row: 3, detail });
    scope.recordUpdates('run-1', [update({ before: { job_title: 'Intern' } })]);
    scope.recordUpdates('run-1', [update({ before: { job_title: 'CTO' } })]);
    expect(scope.runEffects('run-1')).toEqual([
      expect.objectContaining({
        kind: 'updated',
        file: 'a.csv',
        row: 3,
        detail: { before: { job_title: 'Intern' } },
      }),
    ]);
    scope.dropUpdate('run-1', 'id-x');
    expect(scope.runEffects('run-1')).toEqual([]);
  });

  it('settles an undo: archived contacts forgotten and remembered as undone, restored ones sent again', () => {
    const scope = open().scope(SCOPE);
    scope.beginCreate({ runId: 'run-1', idempotencyKey: 'k', keys: ['a'], hashes: ['h1'], body: '{}' });
    scope.completeCreate('k', ['id-a']);
    scope.putContacts([{ key: 'x', contactId: 'id-x', hash: 'hx' }]);
    scope.recordUpdates('run-1', [{ contactId: 'id-x', key: 'x', file: 'a.csv', row: 2, detail: {} }]);
    const [created, updated] = scope.runEffects('run-1');
    scope.settleUndo('run-1', [
      { effect: created!, mark: { outcome: 'archived', undoRunId: 'u1' } },
      { effect: updated!, mark: { outcome: 'restored', undoRunId: 'u1' } },
    ]);
    expect(scope.getContacts(['a', 'x'])).toEqual(new Map([['x', { contactId: 'id-x', hash: 'undone' }]]));
    expect(scope.isUndone('id-a')).toBe(true);
    expect(scope.isUndone('id-x')).toBe(false);
    expect(scope.runEffects('run-1').map((e) => e.undo?.outcome)).toEqual(['archived', 'restored']);
    // A reset target forgets what was undone with everything else.
    scope.forgetTarget();
    expect(scope.isUndone('id-a')).toBe(false);
  });

  it('finds a run by id with its scope', () => {
    const ledger = open();
    ledger.startRun({
      runId: 'run-9',
      scopeId: SCOPE,
      pipeline: 'generic',
      inputs: ['a.csv'],
      dryRun: false,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(ledger.findRun('run-9')).toMatchObject({
      runId: 'run-9',
      scopeId: SCOPE,
      dryRun: false,
      status: 'running',
    });
    expect(ledger.findRun('nope')).toBeUndefined();
  });
});
