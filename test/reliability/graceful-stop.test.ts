import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { openLedger, scopeId } from '../../src/state/index.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import {
  cliArgs,
  outcomes,
  readIssues,
  readReport,
  startService,
  tempDir,
  type TestService,
} from '../e2e/harness.js';
import { expectExactlyLoaded, expectTruthfulReport } from './helpers.js';

/** Ctrl-C during a load. */
let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 50 chunks of 10: what is checked depends on the chunks in flight at the stop, not their size.
const COUNT = 500;
const CHUNK = 10;
/** The contacts sent before the stop: the load is visibly under way, far from done. */
const STOP_AFTER = 100;

describe('graceful stop (SIGINT)', () => {
  it(
    'lets requests in flight finish, saves the ledger, reports interrupted with exit 130, and the next run continues',
    { timeout: 90_000 },
    async () => {
      const dir = tempDir();
      // Latency keeps the load going long enough to stop it in the middle (50 chunks, 4 in flight,
      // a tenth of a second each), waiting rather than working.
      svc = await startService({ latencyMs: 100 });
      const rows = people(COUNT);
      const file = writeGenericCsv(dir, 'people.csv', rows);
      const state = join(dir, 'state');
      // --match none: the ledger alone must carry the rerun (and no per-record searches slow it down).
      const args = [
        'run',
        'generic',
        file,
        '--target',
        svc.service.url,
        '--state',
        state,
        '--chunk-size',
        String(CHUNK),
        '--match',
        'none',
      ];
      const env = { ...process.env, CONTACT_IMPORT_API_KEY: svc.key };

      const child = spawn(process.execPath, cliArgs([...args, '--out', join(dir, 'stopped')]), {
        cwd: dir,
        env,
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // Stop once the load is visibly under way: create chunks of STOP_AFTER contacts reached the
      // service, so they are stored by the time their requests finish. Counted by the service in
      // this process: reading the contacts back each time would cost more than the load it waits for.
      const service = svc.service;
      const createsReceived = () => service.requestCounts()['POST /v1/contacts/'] ?? 0;
      while (child.exitCode === null && createsReceived() * CHUNK < STOP_AFTER) await sleep(20);
      child.kill('SIGINT');
      const code = await exited;

      expect(stderr).toContain('Stopping: requests in flight finish');
      expect(code).toBe(130);
      const report = readReport(join(dir, 'stopped'));
      expect(report.status).toBe('interrupted');
      expect(report.exitCode).toBe(130);
      // The load runs while the file is read: the stop may land before reading ended, and then
      // the rows not read are in no count, and the report says where reading stopped.
      const read = report.totals.read;
      expect(outcomes(report)).toBe(read);
      expect(read).toBeLessThanOrEqual(COUNT);
      if (read < COUNT) expect(report.readingStopped?.file).toBe(file);
      expect(report.totals.created).toBeGreaterThanOrEqual(STOP_AFTER);
      expect(report.totals.created).toBeLessThan(COUNT);
      // Interrupted is not failed: what was not sent is pending, in no issue and no rejected file.
      expect(report.totals.failed).toBe(0);
      expect(report.totals.pending).toBe(read - report.totals.created);
      expect(readIssues(join(dir, 'stopped')).filter((i) => i.severity === 'error')).toEqual([]);
      expect(existsSync(join(dir, 'stopped', 'rejected.csv'))).toBe(false);

      // Requests in flight finished and were recorded: the service holds exactly what the report
      // says was created, and the ledger has nothing pending and knows every stored contact.
      const stored = await svc.client.local.contacts();
      expect(stored).toHaveLength(report.totals.created);
      const ledger = openLedger({ dir: state });
      try {
        const scope = ledger.scope(scopeId(svc.service.url, svc.key));
        expect(scope.pendingCreates()).toEqual([]);
        const known = scope.getContacts(rows.map((p) => `email:${p.email.toLowerCase()}`));
        expect(known.size).toBe(report.totals.created);
        expect(new Set([...known.values()].map((e) => e.contactId))).toEqual(
          new Set(stored.map((c) => c.id)),
        );
      } finally {
        ledger.close();
      }

      // The next run is the same run in this process: what it continues is the library's.
      const { report: finished } = await runImport({
        pipeline: 'generic',
        inputs: [file],
        target: { url: svc.service.url, apiKey: svc.key },
        stateDir: state,
        outDir: join(dir, 'next'),
        chunkSize: CHUNK,
        match: 'none',
      });
      expect(finished.exitCode).toBe(0);
      expect(finished.totals).toMatchObject({
        unchanged: report.totals.created,
        created: COUNT - report.totals.created,
        updated: 0,
      });
      expectTruthfulReport(finished, await expectExactlyLoaded(svc.client, rows), COUNT);
    },
  );
});
