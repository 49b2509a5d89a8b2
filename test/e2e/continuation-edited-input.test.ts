import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { openLedger, scopeId } from '../../src/state/index.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { killGenericRun, loadInProcess, readReport } from './harness.js';

/**
 * The input edited between a kill -9 and the same command: a create in flight at the kill is
 * journaled with its body, and that body is what is resent under its key (the target replays it
 * or creates it now; the same key with another body would be a different request). The records
 * whose values changed since are then updated with the new values, in the same run: the ledger
 * holds the hash of what was sent, not of the file as it is now. Nothing of the old file is left.
 * The killed run is a process of its own (test/support/hooked-run.mjs); the same run after it runs
 * in this one, its report and what the service holds being what is checked.
 */
const each = perTest();

// Both steps leave the killed chunk itself pending (recorded and sent; answered and not yet
// recorded), so a create is in flight at the kill whatever the other chunks were doing then.
// 20 chunks of 10, the kill at the eighth: what is checked depends on the chunks, not their size.
const ROWS = 200;
const CHUNK = 10;
describe.each(['create-recorded', 'create-answered'])(
  'a continuation after kill -9 at %s:8, the file edited meanwhile',
  (step) => {
    it(
      'resends the creates in flight as they were sent, then updates every person to the edited file',
      { timeout: 200_000 },
      async () => {
        const dir = each.dir();
        const svc = await each.start();
        const rows = people(ROWS);
        const file = writeGenericCsv(dir, 'people.csv', rows);
        const state = join(dir, 'state');
        const env = { CONTACT_IMPORT_API_KEY: svc.key };
        const killed = await killGenericRun(
          {
            file,
            target: svc.service.url,
            stateDir: state,
            outDir: 'first',
            chunkSize: CHUNK,
            candidates: 'off',
            killAt: `${step}:8`,
          },
          { cwd: dir, env },
        );
        expect(killed.signal, killed.stderr).toBe('SIGKILL');
        const ledger = openLedger({ dir: state });
        let pendingRecords: number;
        try {
          pendingRecords = ledger
            .scope(scopeId(svc.service.url, svc.key))
            .pendingCreates()
            .reduce((n, p) => n + p.keys.length, 0);
        } finally {
          ledger.close();
        }
        expect(pendingRecords, 'a create in flight at the kill').toBeGreaterThan(0);
        const loadedBefore = (await svc.client.local.contacts()).length;

        // Every person's job title changed, those of the creates in flight included.
        const edited = rows.map((p) => ({ ...p, title: `Director ${p.i}` }));
        writeGenericCsv(dir, 'people.csv', edited);
        const next = await loadInProcess(
          svc,
          file,
          { stateDir: state, outDir: join(dir, 'next') },
          { chunkSize: CHUNK, candidates: 'off' },
        );
        expect(next.report.exitCode, JSON.stringify(next.report.error)).toBe(0);
        const report = readReport(join(dir, 'next'));
        // Each person once, each holding the edited title (expectExactlyLoaded compares job titles).
        expectTruthfulReport(report, await expectExactlyLoaded(svc.client, edited), rows.length);
        // The contacts stored before the continuation, and those its resent creates stored, were
        // updated to the edited file: none is left holding what the killed run sent.
        expect(report.totals.updated).toBeGreaterThanOrEqual(loadedBefore);
        expect(report.totals.updated + report.totals.created).toBe(rows.length);
      },
    );
  },
);
