import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeWide } from './generic-csv.js';
import { readReport, runCli, startService, type TestService } from './harness.js';

/** Wide rows load whole. The peak memory of such a run is measured in test/perf/wide-rows-memory.test.ts. */
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
    const result = await runCli(
      [
        'run',
        'generic',
        file,
        '--target',
        svc.service.url,
        '--state',
        join(dir, 'state'),
        '--out',
        join(dir, 'out'),
      ],
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readReport(join(dir, 'out')).totals).toMatchObject({
      read: 600,
      created: 600,
      rejected: 0,
      failed: 0,
    });
    expect(await svc.client.local.contacts()).toHaveLength(600);
  });
});
