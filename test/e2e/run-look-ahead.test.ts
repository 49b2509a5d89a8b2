import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { startLossyProxy } from '../support/lossy-proxy.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { loadInProcess, readReport } from './harness.js';
import { runImport } from '../../src/run/run.js';

/**
 * Into a target that holds contacts, the e-mail searches run ahead of the chunks that
 * need them. Resolution works in batches of chunk x concurrency x 2 records; before this, a batch's
 * searches started only once the chunks of the batch before were all in the window, so the first
 * write reached the target after one batch of searches. Now two batches are resolved ahead: their
 * searches queue in the client before the first batch's chunks, and the target sees them first.
 * Observed at a real HTTP proxy in front of the service, in the order requests arrived.
 */
const each = perTest();

// Small chunks keep the runs short: the order observed depends on how many batches the file
// spans (five here), not on how many records a chunk holds.
const CHUNK = 10;
const CONCURRENCY = 2;
const BATCH = CHUNK * CONCURRENCY * 2;
const FOREIGN = 100;
const ROWS = 200;

describe('a run into a target that holds contacts', () => {
  it('searches batches ahead of the writes, and stores everyone once', { timeout: 120_000 }, async () => {
    const dir = each.dir();
    const svc = await each.start();
    const other = await loadInProcess(
      svc,
      writeGenericCsv(dir, 'other.csv', people(FOREIGN)),
      { stateDir: join(dir, 'other'), outDir: join(dir, 'o') },
      { chunkSize: CHUNK, concurrency: CONCURRENCY },
    );
    expect(other.report.exitCode, JSON.stringify(other.report.error)).toBe(0);

    const proxy = await startLossyProxy(svc.service.url, { lossRate: 0, seed: 1 });
    each.closeLater(() => proxy.close());
    // The first half of the file is on the target (found: updated), the second half is not.
    const rows = people(ROWS).map((p) => ({ ...p, title: `Lead ${p.title}` }));
    // In this process: the order the target sees is the library's, whatever starts the run.
    const mine = await runImport({
      pipeline: 'generic',
      inputs: [writeGenericCsv(dir, 'mine.csv', rows)],
      target: { url: proxy.url, apiKey: svc.key },
      stateDir: join(dir, 'mine'),
      outDir: join(dir, 'm'),
      chunkSize: CHUNK,
      concurrency: CONCURRENCY,
    });
    expect(mine.report.exitCode, JSON.stringify(mine.report.error)).toBe(0);

    const firstWrite = proxy.order.findIndex((r) => r === 'POST /v1/contacts/' || r === 'PUT /v1/contacts/');
    expect(firstWrite).toBeGreaterThan(0);
    const searchesBefore = proxy.order.slice(0, firstWrite).filter((r) => r === 'GET /v1/search/contacts');
    // The probe, then the searches of three batches (each record has one e-mail), less what the
    // client had in flight when the first batch's chunks were queued.
    expect(searchesBefore.length).toBeGreaterThan(2 * BATCH);
    // Searches went on while the chunks were being sent: they do not all come before the last write.
    const lastWrite = proxy.order.findLastIndex(
      (r) => r === 'POST /v1/contacts/' || r === 'PUT /v1/contacts/',
    );
    expect(proxy.order.slice(firstWrite, lastWrite).some((r) => r === 'GET /v1/search/contacts')).toBe(true);
    // Still one search per record, no more.
    expect(proxy.counts.get('GET /v1/search/contacts')).toBeLessThanOrEqual(ROWS + 1);

    const report = readReport(join(dir, 'm'));
    expect(report.totals).toMatchObject({ updated: FOREIGN, created: ROWS - FOREIGN });
    expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), ROWS);
  });
});
