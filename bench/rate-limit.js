#!/usr/bin/env node
/**
 * A run against a target that announces its limit: the local service with `--rate-limit 5`
 * (announced in RateLimit-Policy / X-RateLimit-* headers) in this process, the run in a child
 * process (bench/tasks/run-import.js), a generic export of `--rows` loaded in chunks of `--chunk`,
 * 4 in flight. The service's request count is sampled every 20 ms: the sustained rate is the requests
 * after the start probe over the time from the second request to the last. Prints it against the
 * limit (the target: >= 0.95, 0 failed) and how many requests the service refused (429).
 * Needs `npm run build` first.
 *
 *   node bench/rate-limit.js [--rows 2000] [--chunk 10] [--limit 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { task } from './processes.js';
import { dist } from './tasks/common.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000' },
    limit: { type: 'string', default: '5' },
    chunk: { type: 'string', default: '10' },
  },
});
const ROWS = Number(values.rows);
const LIMIT = Number(values.limit);
// Small chunks: 200 requests for 2,000 rows, so the run is bound by the limit, not by reading.
const CHUNK = Number(values.chunk);
const KEY = 'bench_rate_key_0123456789';

const dir = mkdtempSync(join(tmpdir(), 'bench-rate-'));
const { startLocalService } = await import(dist('server/index.js'));
let service;
let sampler;
try {
  const file = join(dir, 'people.csv');
  await generate({ format: 'generic', rows: ROWS, seed: 1, out: file });
  service = await startLocalService({
    port: 0,
    db: join(dir, 'service.sqlite'),
    apiKeys: [KEY],
    rateLimit: LIMIT,
  });
  const total = () => Object.values(service.requestCounts()).reduce((a, b) => a + b, 0);
  const creates = () => service.requestCounts()['POST /v1/contacts/'] ?? 0;
  // [time, requests so far, contact creates so far] whenever the count moved.
  const samples = [[performance.now(), 0, 0]];
  sampler = setInterval(() => {
    const n = total();
    if (n !== samples.at(-1)[1]) samples.push([performance.now(), n, creates()]);
  }, 20);
  const run = await task('run-import', {
    file,
    target: { url: service.url, apiKey: KEY },
    stateDir: join(dir, 'state'),
    outDir: join(dir, 'out'),
    chunkSize: CHUNK,
    concurrency: 4,
  });
  clearInterval(sampler);
  // Requests per second of the run, on stderr: where the sending slowed, if it did.
  const perSecond = [];
  for (let k = 1; k < samples.length; k++) {
    const second = Math.floor((samples[k][0] - samples[0][0]) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + (samples[k][1] - samples[k - 1][1]);
  }
  process.stderr.write(`requests per second: ${Array.from(perSecond, (n) => n ?? 0).join(' ')}\n`);
  // The load phase, from the first contact create to the last: before it the run reads and sends
  // a few requests of its own pace (groups, searches), not bound by the limit.
  const from = samples.find(([, , c]) => c >= 1);
  const to = samples.find(([, , c]) => c === samples.at(-1)[2]);
  const seconds = (to[0] - from[0]) / 1000;
  const loadPhaseRatio = (to[1] - from[1]) / seconds / LIMIT;
  // Sustained: once the run had requests queued without a break, from the end of the last whole
  // second without a request to the last request (the run's own reading no longer holds it back).
  const idle = perSecond.findLastIndex((n) => !n);
  const steady = samples.find(([t]) => t - samples[0][0] >= (idle + 1) * 1000);
  const steadySeconds = (samples.at(-1)[0] - steady[0]) / 1000;
  const ratio = (samples.at(-1)[1] - steady[1]) / steadySeconds / LIMIT;
  process.stdout.write(
    `${JSON.stringify({
      rows: ROWS,
      chunk: CHUNK,
      limit: LIMIT,
      loaded: run.totals.created + run.totals.updated,
      requests: samples.at(-1)[1],
      loadPhaseRequests: to[1] - from[1],
      loadPhaseSeconds: +seconds.toFixed(2),
      loadPhaseRatio: +loadPhaseRatio.toFixed(3),
      sustainedRequests: samples.at(-1)[1] - steady[1],
      sustainedSeconds: +steadySeconds.toFixed(2),
      refused429: service.injectedFaults().rateLimited,
      retried: run.requests.retried,
      failed: run.totals.failed,
      ratio: +ratio.toFixed(3),
      met: ratio >= 0.95 && run.totals.failed === 0,
    })}\n`,
  );
} finally {
  clearInterval(sampler);
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
}
