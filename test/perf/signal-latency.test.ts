import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, readReport, tempDir } from '../e2e/harness.js';
import { stopWhileReading, writeHugeVcard } from '../support/huge-vcard.js';

/**
 * The signal contract's clock (npm run test:perf, not npm test): 130 or 143 within a second, even
 * in the middle of a vCard of megabytes of quoted-printable photos (its cards once took 117 s to
 * unfold, and SIGTERM waited 25 s behind them). That the stop is a clean one is
 * test/reliability/signals.test.ts.
 */
describe('a signal while a huge vCard is read', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: exit ${code} within a second, with its report`, { timeout: 180_000 }, async () => {
      const dir = tempDir();
      const input = writeHugeVcard(dir, 12);
      const out = join(dir, 'out');
      const ended = await stopWhileReading(
        CLI,
        ['validate', 'vcard', input, '--out', out, '--progress-interval', '0'],
        { signal, afterMs: 1_000, cwd: dir },
      );
      expect(ended.code, ended.stderr).toBe(code);
      expect(readReport(out)).toMatchObject({ status: 'interrupted', exitCode: code });
      expect(readReport(out).inputs[0]).toMatchObject({ readWhole: false });
      expect(ended.msAfterSignal).toBeLessThan(1_000);
    });
  }
});
