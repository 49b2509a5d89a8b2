import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { CLI, readReport, runCli } from './harness.js';

/** Issue 15.1: the same command after Ctrl-C or kill -9 sends what is left, not a search per record. */
const each = perTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ROWS = 4000;
const CHUNK = 50;
const CONCURRENCY = 4;

describe.each([
  ['Ctrl-C', 'SIGINT'],
  ['kill -9', 'SIGKILL'],
] as const)('a continuation after %s at about 40 %%', (_name, signal) => {
  it(
    'sends the chunks left and the pending ones, and stores every person once',
    { timeout: 150_000 },
    async () => {
      const dir = each.dir();
      const svc = await each.start({ latencyMs: 15 });
      const rows = people(ROWS);
      const file = writeGenericCsv(dir, 'people.csv', rows);
      // The default --match email: a first run into an empty target searches nothing; neither may its continuation.
      const args = ['run', 'generic', file, '--target', svc.service.url, '--state', join(dir, 'state')];
      args.push('--chunk-size', String(CHUNK), '--concurrency', String(CONCURRENCY));
      const env = { ...process.env, CONTACT_IMPORT_API_KEY: svc.key };

      const child = spawn(process.execPath, [CLI, ...args, '--out', join(dir, 'first')], { cwd: dir, env });
      const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
      const deadline = Date.now() + 40_000;
      while ((await svc.client.local.contacts()).length < ROWS * 0.4 && Date.now() < deadline)
        await sleep(25);
      child.kill(signal);
      await exited;
      const stored = (await svc.client.local.contacts()).length;
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(ROWS);

      const next = await runCli([...args, '--out', join(dir, 'next')], {
        cwd: dir,
        env: { CONTACT_IMPORT_API_KEY: svc.key },
      });
      expect(next.code, next.stderr).toBe(0);
      const report = readReport(join(dir, 'next'));
      const chunksLeft = Math.ceil((ROWS - stored) / CHUNK);
      // The continuation lists the target once (E4 pages of 100) to know it holds only its own contacts.
      const scanPages = Math.ceil(stored / 100) + 1;
      // kill -9 can leave a create chunk in flight per place of the window.
      const pendingChunks = signal === 'SIGKILL' ? CONCURRENCY : 0;
      expect(
        report.requests.sent,
        JSON.stringify(report.requests.byEndpoint) + next.stderr,
      ).toBeLessThanOrEqual(chunksLeft + pendingChunks + scanPages + 20);
      const searches = report.requests.byEndpoint['GET /v1/search/contacts']?.sent ?? 0;
      expect(searches, 'no search per record').toBeLessThanOrEqual(scanPages + 1);
      // Loaded counts the pending creates it settled (found, or resent) before going on.
      expect(report.continues?.loaded).toBeGreaterThanOrEqual(stored);
      expect(report.continues?.loaded).toBeLessThanOrEqual(stored + pendingChunks * CHUNK);
      expect(report.continues?.toGo).toBe(ROWS - report.continues!.loaded);
      expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), ROWS);
    },
  );
});
