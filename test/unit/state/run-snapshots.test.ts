import { afterAll, describe, expect, it } from 'vitest';
import { openLedger, type RunSnapshot } from '../../../src/state/index.js';
import { ALICE, BOB } from './fixtures/ledgers.js';
import { tempDirs } from './fixtures/temp-dir.js';

const dirs = tempDirs('ledger-runs');
afterAll(() => dirs.cleanup());

const base = { scopeId: ALICE, pipeline: 'generic', inputs: ['a.csv'], dryRun: false };

const snapshot: RunSnapshot = {
  definition: 'd'.repeat(64),
  inputs: [{ path: 'a.csv', size: 12, sha256: 'a'.repeat(64) }],
  outDir: '/tmp/out',
  outputs: [{ name: 'issues.csv', size: 40 }],
  topIssues: [],
};

describe('lastLoadRun', () => {
  it('is the newest non-dry run of the scope, with its report and snapshot', () => {
    const ledger = openLedger({ dir: dirs.make() });
    expect(ledger.lastLoadRun(ALICE)).toBeUndefined();
    ledger.startRun({ ...base, runId: 'r1', startedAt: '2024-05-01T10:00:00.000Z' });
    ledger.finishRun('r1', { status: 'completed', finishedAt: '2024-05-01T10:05:00.000Z' }, snapshot);
    ledger.startRun({ ...base, runId: 'dry', dryRun: true, startedAt: '2024-05-02T10:00:00.000Z' });
    ledger.finishRun('dry', { status: 'completed', finishedAt: '2024-05-02T10:01:00.000Z' });
    ledger.startRun({ ...base, scopeId: BOB, runId: 'bob', startedAt: '2024-05-03T10:00:00.000Z' });

    expect(ledger.lastLoadRun(ALICE)).toEqual({
      runId: 'r1',
      status: 'completed',
      startedAt: '2024-05-01T10:00:00.000Z',
      finishedAt: '2024-05-01T10:05:00.000Z',
      report: { status: 'completed', finishedAt: '2024-05-01T10:05:00.000Z' },
      snapshot,
      overlapped: false,
    });
    expect(ledger.lastLoadRun(BOB)).toMatchObject({ runId: 'bob', status: 'running', overlapped: false });
    expect(ledger.lastLoadRun(BOB)?.snapshot).toBeUndefined();

    // A later run, even one still running, is the last one now.
    ledger.startRun({ ...base, runId: 'r2', startedAt: '2024-05-04T10:00:00.000Z' });
    expect(ledger.lastLoadRun(ALICE)).toMatchObject({ runId: 'r2', status: 'running' });
    ledger.close();
  });

  it('says when another run finished after it started (the two overlapped)', () => {
    const ledger = openLedger({ dir: dirs.make() });
    ledger.startRun({ ...base, runId: 'crashed', startedAt: '2024-05-01T09:00:00.000Z' });
    ledger.startRun({ ...base, runId: 'long', startedAt: '2024-05-01T09:30:00.000Z' });
    ledger.startRun({ ...base, runId: 'last', startedAt: '2024-05-01T10:00:00.000Z' });
    ledger.finishRun('last', { status: 'completed', finishedAt: '2024-05-01T10:05:00.000Z' }, snapshot);
    // A run that never finished (a crash, resumed by the runs after it) is no overlap.
    expect(ledger.lastLoadRun(ALICE)?.overlapped).toBe(false);
    ledger.finishRun('long', { status: 'completed', finishedAt: '2024-05-01T10:06:00.000Z' });
    expect(ledger.lastLoadRun(ALICE)).toMatchObject({ runId: 'last', overlapped: true });
    ledger.close();
  });
});
