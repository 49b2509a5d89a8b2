import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';
import { writeWide } from './generic-csv.js';
import { readIssues, readRejected, readReport, runCli, startService, type TestService } from './harness.js';

/** Requests bounded by bytes as well as count; what fits no request is rejected. */
let svc: TestService | undefined;
let proxy: RewritingProxy | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await proxy?.close();
  await svc?.close();
  proxy = undefined;
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-size-'));
  dirs.push(dir);
  return dir;
};

/**
 * A run of `file` into `url` in this process: the bounds and what they reject are the library's;
 * the command line's side (the flag, validate's exit code) is the spawned validate below.
 */
const run = async (dir: string, file: string, out: string, url: string, maxBodyBytes?: number) =>
  (
    await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url, apiKey: svc!.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, out),
      ...(maxBodyBytes ? { maxBodyBytes } : {}),
    })
  ).report;

describe('request size', () => {
  it(
    'loads 100 rows with 60 KB descriptions, one chunk by count, in bodies under the 5 MB limit',
    { timeout: 300_000 },
    async () => {
      const dir = scratch();
      svc = await startService();
      const file = writeWide(dir, 'wide.csv', 100, () => 60_000);
      const report = await run(dir, file, 'out', svc.service.url);
      expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
      expect(report.totals).toMatchObject({ read: 100, created: 100, failed: 0, rejected: 0 });
      // 6 MB of records, one chunk of 100 by count: at least two create bodies, none refused.
      expect(report.requests.byEndpoint['POST /v1/contacts/']?.sent).toBeGreaterThanOrEqual(2);
      expect(report.requests.failed).toBe(0);
      const stored = await svc.client.local.contacts();
      expect(stored).toHaveLength(100);
      expect(stored.every((c) => typeof c.description === 'string' && c.description.length === 60_000)).toBe(
        true,
      );
    },
  );

  it(
    'rejects the one record larger than --max-body-bytes of a 50-row file and loads the 49 others; validate says the same',
    { timeout: 300_000 },
    async () => {
      const dir = scratch();
      svc = await startService();
      // A bound of 100,000 bytes and a record of 150 KB cross the same line as the default bound
      // and a 6 MB record (the default itself: test/unit/run/options.test.ts), at a fortieth of the bytes.
      const file = writeWide(dir, 'one-huge.csv', 50, (i) => (i === 24 ? 150_000 : 100));
      // validate takes no target: it checks the file alone, with the same request-size bound.
      const checked = await runCli(
        ['validate', 'generic', file, '--out', join(dir, 'checked'), '--max-body-bytes', '100000'],
        { cwd: dir },
      );
      expect(checked.code, checked.stderr).toBe(1);
      const loaded = await run(dir, file, 'loaded', svc.service.url, 100_000);
      expect(loaded.exitCode).toBe(1);
      for (const out of ['checked', 'loaded']) {
        const report = readReport(join(dir, out));
        expect(report.totals).toMatchObject({ read: 50, created: 49, rejected: 1, failed: 0 });
        const errors = readIssues(join(dir, out)).filter((i) => i.severity === 'error');
        expect(errors.map((i) => [i.code, i.row])).toEqual([['record_too_large', '25']]);
        expect(errors[0]!.message).toMatch(/more than one request carries \(--max-body-bytes 100,000\)/);
        expect(readRejected(join(dir, out, 'rejected.csv'))).toContain('wide.24@example.com');
      }
      const stored = await svc.client.local.contacts();
      expect(stored).toHaveLength(49);
      expect(stored.some((c) => c.full_name === 'Wide Person24')).toBe(false);
    },
  );

  it(
    'splits on a 413 like on a 400, and fails the record that a smaller target refuses alone',
    { timeout: 300_000 },
    async () => {
      const dir = scratch();
      svc = await startService();
      proxy = await startRewritingProxy(svc.service.url);
      // A target whose bodies stop at 200 KB, while the run believes 4.9 MB: one body of all 61
      // (900 KB) is refused, and so is the 300 KB record alone.
      proxy.maxBodyBytes = 200_000;
      const file = writeWide(dir, 'smaller.csv', 61, (i) => (i === 60 ? 300_000 : 10_000));
      const report = await run(dir, file, 'out', proxy.url);
      expect(report.exitCode).toBe(1);
      expect(report.totals).toMatchObject({ read: 61, created: 60, failed: 1, rejected: 0 });
      const errors = readIssues(join(dir, 'out')).filter((i) => i.severity === 'error');
      expect(errors.map((i) => [i.code, i.row])).toEqual([['record_too_large', '61']]);
      expect(Math.max(...proxy.forwarded)).toBeLessThanOrEqual(200_000);
      expect(await svc.client.local.contacts()).toHaveLength(60);
    },
  );
});
