import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { startLossyProxy } from '../support/lossy-proxy.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { readReport } from './harness.js';
import { runImport } from '../../src/run/run.js';

/**
 * A create whose answer was lost is looked up before it is resent. The target that
 * ignores Idempotency-Key is the local service started as `serve --no-idempotency` (library:
 * `idempotency: false`); the proxy in front only loses answers. The runs go in this process,
 * through the real client: their report and the service are what is checked.
 */
const each = perTest();

// 30 chunks, as many answers the proxy may lose.
const ROWS = 300;
const CHUNK = 10;

describe.each([
  ['ignores Idempotency-Key', false],
  ['honours Idempotency-Key', true],
])('creates cut and reset at 20 %% on a target that %s', (_name, idempotency) => {
  it('stores every person once', { timeout: 150_000 }, async () => {
    const dir = each.dir();
    const svc = await each.start({ idempotency });
    const proxy = await startLossyProxy(svc.service.url, { lossRate: 0.2, seed: 15 });
    each.closeLater(() => proxy.close());
    const rows = people(ROWS);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    const result = await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: proxy.url, apiKey: svc.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'out'),
      chunkSize: CHUNK,
    });
    expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
    expect(proxy.lost.reset).toBeGreaterThan(0);
    expect(proxy.lost.cut).toBeGreaterThan(0);
    const report = readReport(join(dir, 'out'));
    expect(report.totals.created).toBe(rows.length);
    expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), rows.length);
    // The check costs one exact search per record of a lost chunk, not a search per record loaded.
    const lostChunks = proxy.lost.reset + proxy.lost.cut;
    expect(proxy.counts.get('GET /v1/search/contacts') ?? 0).toBeLessThanOrEqual(lostChunks * CHUNK + 1);
  });
});
