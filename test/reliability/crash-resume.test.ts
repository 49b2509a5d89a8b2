import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger, RUN_WORK_FOLDER, scopeId } from '../../src/state/index.js';
import { seededRandom } from '../../src/server/faults.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import {
  loadInProcess,
  readReport,
  runCli,
  runHooked,
  startService,
  tempDir,
  type TestService,
} from '../e2e/harness.js';
import { expectExactlyLoaded, expectTruthfulReport } from './helpers.js';

/**
 * A run against the local service (its database on disk) is SIGKILLed at seeded points, one per
 * phase, each run resuming what the previous one left, until a run completes. The killed runs go through test/support/hooked-run.mjs, the library with a run hook
 * (`hooks.onStep`, src/run/hooks.ts) that SIGKILLs the process the n-th time it passes a step, so
 * each kill lands where the plan says, not where a timer happened to fire; the run that completes
 * is the CLI's, the one after it (sending nothing) runs in this process. RELIABILITY_SEED replays
 * another plan.
 */
// What is tested is where each kill lands, counted in steps, not the size: enough rows that every
// kill below falls before the job is done (62 chunks of 20; the load kills take at most 31 of
// them), and two read steps for the last kill.
const COUNT = 1_240;
const CHUNK = 20;
const SEED = Number(process.env.RELIABILITY_SEED ?? 20_240_611);
const random = seededRandom(SEED);
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

// 1,240 rows read in progress steps of 1,024 (2 steps: one in the middle of the input, the other at
// its end); 3 groups and 1 custom field; 62 create chunks. The first two runs find the target empty
// and load while they read (load/index.ts): one dies creating the groups, the next mid-chunk. Later
// runs find contacts there, so they read everything before they send: the last one dies while
// reading, before its first request. Further steps in the middle of the input would take the same
// path as the first, only later.
const KILLS = [
  `group:${between(1, 4)}`,
  `create-recorded:${between(2, 10)}`,
  `create-answered:${between(2, 10)}`,
  `create-done:${between(2, 10)}`,
  // The previous kill left chunks in flight pending: this one dies while resending them.
  'create-answered:1',
  `read:${between(1, 2)}`,
];

let svc: TestService | undefined;
afterAll(async () => {
  await svc?.close();
});

describe(`crash and resume (seed ${SEED}: ${KILLS.join(', ')})`, () => {
  it(
    'loads every contact exactly once after SIGKILLs while reading, creating groups, mid-chunk, between chunks and after a send',
    // A bound for a hung run only: on a loaded two-core machine this takes several minutes.
    { timeout: 600_000 },
    async () => {
      const dir = tempDir();
      const db = join(dir, 'service.sqlite');
      svc = await startService({ db });
      const rows = people(COUNT);
      const file = writeGenericCsv(dir, 'people.csv', rows);
      const state = join(dir, 'state');
      // The runs' own system temp folder: nothing of theirs may be left there, killed or not.
      const systemTemp = join(dir, 'system-temp');
      mkdirSync(systemTemp);
      const env = () => ({
        CONTACT_IMPORT_API_KEY: svc!.key,
        TMPDIR: systemTemp,
        TMP: systemTemp,
        TEMP: systemTemp,
      });
      const options = () => ({ cwd: dir, env: env() });
      const run = (out: string, killAt?: string) =>
        killAt
          ? runHooked(
              {
                run: {
                  pipeline: 'generic',
                  inputs: [file],
                  target: svc!.service.url,
                  stateDir: state,
                  outDir: join(dir, out),
                  chunkSize: CHUNK,
                },
                killAt,
              },
              options(),
            )
          : runCli(
              [
                'run',
                'generic',
                file,
                '--target',
                svc!.service.url,
                '--state',
                state,
                '--out',
                join(dir, out),
                '--chunk-size',
                String(CHUNK),
                // A run on a slow machine prints a plain progress line every 10 s; this test wants
                // stderr to hold only what went wrong.
                '--progress-interval',
                '0',
              ],
              options(),
            );

      const seenPending: number[] = [];
      for (const [index, killAt] of KILLS.entries()) {
        const result = await run(`killed-${index}`, killAt);
        expect(result.signal, `run ${index} (${killAt}) was killed where planned: ${result.stderr}`).toBe(
          'SIGKILL',
        );
        expect(existsSync(join(dir, `killed-${index}`, 'report.json')), 'a killed run writes no report').toBe(
          false,
        );
        expect(readdirSync(systemTemp), 'nothing in the system temp folder').toEqual([]);
        expect(
          readdirSync(join(state, RUN_WORK_FOLDER)),
          'the killed run’s scratch folder and lock alone: the one before was swept',
        ).toHaveLength(2);
        const ledger = openLedger({ dir: state });
        try {
          const scope = ledger.scope(scopeId(svc!.service.url, svc!.key));
          seenPending.push(scope.pendingCreates().length);
        } finally {
          ledger.close();
        }
      }
      // Kills in the load phase left creates pending: the runs after them had something to resume.
      expect(seenPending.slice(1, 5).some((n) => n > 0)).toBe(true);

      const final = await run('final');
      expect(final.stderr).toBe('');
      expect(final.code).toBe(0);
      expect(readdirSync(systemTemp)).toEqual([]);
      expect(existsSync(join(state, RUN_WORK_FOLDER)), 'the last killed run’s files swept').toBe(false);
      const report = readReport(join(dir, 'final'));
      expect(report.status).toBe('completed');

      // Reopen the service from its file (same port, so the ledger's scope is the same target).
      const { port } = new URL(svc.service.url);
      await svc.close();
      svc = await startService({ db, apiKeys: [svc.key], port: Number(port) });
      const stored = await expectExactlyLoaded(svc.client, rows);
      expectTruthfulReport(report, stored, COUNT);
      expect(
        report.totals.updated,
        'nothing was matched by search: every earlier create is in the ledger',
      ).toBe(0);

      // The job is done: the same run sends no contact request at all.
      const again = await loadInProcess(
        svc,
        file,
        { stateDir: state, outDir: join(dir, 'again') },
        { chunkSize: CHUNK },
      );
      expect(again.report.exitCode).toBe(0);
      const rerun = readReport(join(dir, 'again'));
      expect(rerun.totals).toMatchObject({
        read: COUNT,
        unchanged: COUNT,
        created: 0,
        updated: 0,
        failed: 0,
      });
      expect(rerun.requests.sent, 'only the target probe').toBe(1);
    },
  );
});
