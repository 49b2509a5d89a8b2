import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeWide } from './generic-csv.js';
import { readIssues, readReport, runCli, runHooked, startService, type TestService } from './harness.js';

/** Issue 16.6: wide rows never kill the normalize workers, and a worker that dies costs no row. */
let svc: TestService | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A worker whatever the machine (a run beside a service on this machine gets none on two cores).
 * The peak memory of such a run is measured in test/perf/wide-rows-memory.test.ts.
 */
const workersOn = (key: string) => ({
  CONTACT_IMPORT_API_KEY: key,
  CONTACT_IMPORT_WORKERS: '1',
});

const load = (dir: string, file: string) =>
  runCli(
    [
      'run',
      'generic',
      file,
      '--target',
      svc!.service.url,
      '--state',
      join(dir, 'state'),
      '--out',
      join(dir, 'out'),
    ],
    {
      cwd: dir,
      env: workersOn(svc!.key),
    },
  );

describe('wide rows and the normalize workers', () => {
  it(
    'an 18 MB file of 600 rows with 30 KB descriptions loads with workers',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ci-wide-'));
      dirs.push(dir);
      svc = await startService();
      const file = writeWide(dir, 'wide.csv', 600, 30_000);
      const result = await load(dir, file);
      expect(result.code, result.stderr).toBe(0);
      expect(readReport(join(dir, 'out')).totals).toMatchObject({
        read: 600,
        created: 600,
        rejected: 0,
        failed: 0,
      });
      expect(readIssues(join(dir, 'out')).filter((i) => i.code === 'normalize_fallback')).toEqual([]);
      expect(await svc.client.local.contacts()).toHaveLength(600);
    },
  );

  it(
    'a worker that dies is reported with the file and rows, and its rows are normalized here',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ci-wide-'));
      dirs.push(dir);
      svc = await startService();
      const file = writeWide(dir, 'wide.csv', 600, 15_000);
      // A run hook (the CLI has none): each worker ends itself when its second batch arrives.
      const result = await runHooked(
        {
          run: {
            pipeline: 'generic',
            inputs: [file],
            target: svc.service.url,
            stateDir: join(dir, 'state'),
            outDir: join(dir, 'out'),
          },
          workerExitAt: 2,
        },
        {
          cwd: dir,
          env: workersOn(svc.key),
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(readReport(join(dir, 'out')).totals).toMatchObject({
        read: 600,
        created: 600,
        rejected: 0,
        failed: 0,
      });
      const lost = readIssues(join(dir, 'out')).filter((i) => i.code === 'normalize_fallback');
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatchObject({ file, row: '0', severity: 'warning' });
      expect(lost[0]!.value).toMatch(/^rows \d+-\d+$/);
      expect(lost[0]!.message).toContain(
        `of ${file}; those rows and the rest of the file were normalized in the main thread`,
      );
      const stored = await svc.client.local.contacts();
      expect(new Set(stored.map((c) => c.full_name)).size).toBe(600);
    },
  );
});
