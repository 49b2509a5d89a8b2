import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger, scopeId } from '../../src/state/index.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import {
  killGenericRun,
  loadInProcess,
  readReport,
  startService,
  tempDir,
  type TestService,
} from '../e2e/harness.js';
import { expectExactlyLoaded, expectTruthfulReport } from './helpers.js';

/**
 * A run killed after its first create was recorded and before it was sent leaves the target
 * empty and its batch's creates pending. The next run finds the target empty, so it loads while
 * it reads, and it resends those creates first: their contacts are in the ledger before any batch
 * is planned. A load that follows reading skips the ledger lookups only while the ledger holds no
 * contact (load/index.ts `keysAreNew`); here it holds some, so their records must come out
 * unchanged, not created a second time. The killed run is a process of its own
 * (test/support/hooked-run.mjs); the next runs in this one, its report being what is checked.
 */
const COUNT = 1_000;

let svc: TestService | undefined;
afterAll(async () => {
  await svc?.close();
});

describe('a run into an empty target that resumes creates first', () => {
  it(
    'finds the resumed contacts in the ledger and creates each person once',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      svc = await startService();
      const rows = people(COUNT);
      const file = writeGenericCsv(dir, 'people.csv', rows);
      const state = join(dir, 'state');
      const options = { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } };
      const killed = await killGenericRun(
        { file, target: svc.service.url, stateDir: state, outDir: 'killed', killAt: 'create-recorded:1' },
        options,
      );
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      expect(await svc.client.local.contacts(), 'the first create was never sent').toHaveLength(0);
      // The batch's creates are recorded together before the first is sent (load/chunk-sender.ts).
      const ledger = openLedger({ dir: state });
      let pendingContacts: number;
      try {
        const pending = ledger.scope(scopeId(svc.service.url, svc.key)).pendingCreates();
        pendingContacts = pending.reduce((sum, create) => sum + create.keys.length, 0);
      } finally {
        ledger.close();
      }
      expect(pendingContacts).toBeGreaterThan(0);

      const final = await loadInProcess(svc, file, { stateDir: state, outDir: join(dir, 'final') });
      expect(final.report.exitCode, JSON.stringify(final.report.error)).toBe(0);
      const report = readReport(join(dir, 'final'));
      expect(report.totals.unchanged, "the resent creates' records were known from the ledger").toBe(
        pendingContacts,
      );
      const stored = await expectExactlyLoaded(svc.client, rows);
      expectTruthfulReport(report, stored, COUNT);
    },
  );
});
