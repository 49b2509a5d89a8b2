import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { startLossyProxy } from '../support/lossy-proxy.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { readReport, runCli } from './harness.js';

/**
 * Issue 15.4: a create whose answer was lost is looked up before it is resent. The target that
 * ignores Idempotency-Key is the local service started as `serve --no-idempotency` (library:
 * `idempotency: false`); the proxy in front only loses answers.
 */
const each = perTest();

describe.each([
  ['ignores Idempotency-Key', false],
  ['honours Idempotency-Key', true],
])('creates cut and reset at 20 %% on a target that %s', (_name, idempotency) => {
  it('stores every person once', { timeout: 150_000 }, async () => {
    const dir = each.dir();
    const svc = await each.start({ idempotency });
    const proxy = await startLossyProxy(svc.service.url, { lossRate: 0.2, seed: 15 });
    each.closeLater(() => proxy.close());
    const rows = people(600);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    const args = ['run', 'generic', file, '--target', proxy.url, '--state', join(dir, 'state')];
    const result = await runCli([...args, '--chunk-size', '20', '--out', join(dir, 'out')], {
      cwd: dir,
      env: { CONTACT_IMPORT_API_KEY: svc.key },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(proxy.lost.reset).toBeGreaterThan(0);
    expect(proxy.lost.cut).toBeGreaterThan(0);
    const report = readReport(join(dir, 'out'));
    expect(report.totals.created).toBe(rows.length);
    expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), rows.length);
    // The check costs one exact search per record of a lost chunk, not a search per record loaded.
    const lostChunks = proxy.lost.reset + proxy.lost.cut;
    expect(proxy.counts.get('GET /v1/search/contacts') ?? 0).toBeLessThanOrEqual(lostChunks * 20 + 1);
  });
});
