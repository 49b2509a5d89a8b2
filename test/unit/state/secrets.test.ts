import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger, scopeId } from '../../../src/state/index.js';
import { tempDirs } from './fixtures/temp-dir.js';

const dirs = tempDirs('ledger-secret');
afterAll(() => dirs.cleanup());

const API_KEY = 'ci_live_Zq8vK3mN7pR2sT5wX9yB4cF6';
const TARGET = 'https://crm.example.com';
const MARKER = 'marker-contact-ada@example.org';

function ledgerBytes(file: string): Buffer[] {
  return [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f));
}

function contains(buffers: Buffer[], text: string): boolean {
  return buffers.some(
    (bytes) => bytes.includes(Buffer.from(text, 'utf8')) || bytes.includes(Buffer.from(text, 'utf16le')),
  );
}

describe('the raw API key', () => {
  it('never reaches the SQLite file or its WAL', () => {
    const ledger = openLedger({ dir: dirs.make() });
    const scope = scopeId(TARGET, API_KEY);
    const ledgerScope = ledger.scope(scope);
    ledger.startRun({
      runId: 'run-1',
      scopeId: scope,
      pipeline: 'generic',
      inputs: ['in.csv'],
      dryRun: false,
      startedAt: '2024-01-01T00:00:00.000Z',
    });
    ledgerScope.putContacts([{ key: MARKER, contactId: 'c1', hash: 'h1' }]);
    ledgerScope.beginCreate({
      runId: 'run-1',
      idempotencyKey: 'run-1-c1',
      keys: ['b@example.org'],
      hashes: ['h'],
      body: '{"contacts":[{}]}',
    });
    ledger.finishRun('run-1', { runId: 'run-1', target: TARGET, status: 'completed' });

    // While open, the writes sit in the WAL; after close they are checkpointed into the file.
    const whileOpen = ledgerBytes(ledger.file);
    expect(contains(whileOpen, MARKER)).toBe(true); // the search does find what is stored
    expect(contains(whileOpen, scope)).toBe(true);
    expect(contains(whileOpen, API_KEY)).toBe(false);
    ledger.close();
    const afterClose = ledgerBytes(ledger.file);
    expect(contains(afterClose, MARKER)).toBe(true);
    expect(contains(afterClose, API_KEY)).toBe(false);
  });
});
