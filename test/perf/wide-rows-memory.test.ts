import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startService, tempDir, type TestService } from '../e2e/harness.js';
import { writeWide } from '../e2e/generic-csv.js';

/**
 * Memory (npm run test:perf, not npm test): a peak RSS bound that holds on a quiet machine. That
 * such a run loads everyone is checked in test/e2e/wide-rows.test.ts.
 */
const PEAK_RSS = resolve(import.meta.dirname, '../support/peak-rss.cjs');
const peakMb = (stderr: string): number => Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1]) / 1024;

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('wide rows', () => {
  it(
    'an 18 MB file of 600 rows with 30 KB descriptions loads under 300 MB',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
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
        {
          cwd: dir,
          env: {
            CONTACT_IMPORT_API_KEY: svc.key,
            NODE_OPTIONS: `--require ${PEAK_RSS}`,
          },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(peakMb(result.stderr)).toBeGreaterThan(0);
      expect(peakMb(result.stderr)).toBeLessThan(300);
    },
  );
});
