import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeWide } from './generic-csv.js';
import { readReport, startService, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';

/**
 * Wide rows load whole. The peak memory of such a run is measured in test/perf/wide-rows-memory.test.ts.
 * The run goes through the library in this process, as `run generic <file> --target <svc>` hands
 * it to it: what is checked is what it loaded.
 */
let svc: TestService | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('wide rows', () => {
  it('an 18 MB file of 600 rows with 30 KB descriptions loads every row', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-wide-'));
    dirs.push(dir);
    svc = await startService();
    const file = writeWide(dir, 'wide.csv', 600, 30_000);
    const result = await runAsCli({
      cwd: dir,
      svc,
      pipeline: 'generic',
      inputs: [file],
      state: 'state',
      out: 'out',
    });
    expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
    expect(readReport(join(dir, 'out')).totals).toMatchObject({
      read: 600,
      created: 600,
      rejected: 0,
      failed: 0,
    });
    expect(await svc.client.local.contacts()).toHaveLength(600);
  });
});
