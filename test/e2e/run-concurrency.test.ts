import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { startService, tempDir, type TestService } from './harness.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

/**
 * `--concurrency` is the number of requests in flight, end to end: the load window and the
 * client's own limit. With a slow answer (latency, long enough that a loaded machine still issues every request before the first answer) the window fills, so the service sees exactly
 * that many at once, never more.
 */
describe('--concurrency', () => {
  for (const concurrency of [2, 8]) {
    it(`puts ${concurrency} requests in flight at once, and no more`, async () => {
      svc = await startService({ latencyMs: 400 });
      const dir = tempDir();
      // 16 chunks of 5: more than either window, so the window fills.
      const file = writeGenericCsv(dir, 'people.csv', people(80));
      const result = await runImport({
        pipeline: 'generic',
        inputs: [file],
        target: { url: svc.service.url, apiKey: svc.key },
        stateDir: join(dir, 'state'),
        outDir: join(dir, 'out'),
        chunkSize: 5,
        concurrency,
      });
      expect(result.report.totals).toMatchObject({ created: 80, failed: 0 });
      // Our own read-back client is idle during the run: every request seen came from the run.
      expect(svc.service.peakInFlight()).toBe(concurrency);
    });
  }
});
