#!/usr/bin/env node
/**
 * A run against a target that announces its limit: the local service in its own process with
 * `--rate-limit 5` (announced in RateLimit-Policy / X-RateLimit-* headers), a generic export of
 * `--rows` loaded in chunks of 100, 4 in flight. Prints the sustained request rate against the
 * limit (the target: >= 0.95, 0 failed) and how many requests the service refused (429).
 * Needs `npm run build` first.
 *
 *   node bench/rate-limit.js [--rows 15000] [--limit 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';
import { startService, task } from './processes.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '15000' }, limit: { type: 'string', default: '5' } },
});
const ROWS = Number(values.rows);
const LIMIT = Number(values.limit);
const CHUNK = 100;
const KEY = 'bench_rate_key_0123456789';

const dir = mkdtempSync(join(tmpdir(), 'bench-rate-'));
let service;
try {
  const file = join(dir, 'people.csv');
  await generate({ format: 'generic', rows: ROWS, seed: 1, out: file });
  service = await startService(join(dir, 'service.sqlite'), KEY, { rateLimit: LIMIT });
  const run = await task('run-import', {
    file,
    target: service.target,
    stateDir: join(dir, 'state'),
    outDir: join(dir, 'out'),
    chunkSize: CHUNK,
    concurrency: 4,
  });
  const sent = run.requests.sent;
  const refused = run.requests.retried;
  // Sustained: the load phase (first to last load progress), once the file is read and staged.
  const loaded = run.totals.created + run.totals.updated;
  const ratio = loaded / run.loadSeconds / (LIMIT * CHUNK);
  process.stdout.write(
    `${JSON.stringify({
      rows: ROWS,
      limit: LIMIT,
      loaded,
      loadSeconds: +run.loadSeconds.toFixed(2),
      requestsSent: sent,
      retried: refused,
      failed: run.totals.failed,
      ratio: +ratio.toFixed(3),
      met: ratio >= 0.95 && run.totals.failed === 0,
    })}\n`,
  );
} finally {
  await service?.stop();
  rmSync(dir, { recursive: true, force: true });
}
