#!/usr/bin/env node
/**
 * Issue 15's figures, side by side in one run (each task in its own process, the local service in
 * its own process on a fresh on-disk database):
 *
 * - `interrupt`: `--rows` generic rows, chunk 100, 4 in flight, into an empty target, stopped
 *   gracefully (the library's Ctrl-C) at 40 % of the load; then the same run again. Requests and
 *   contacts/s of that continuation, next to the first run's rate.
 * - `half`: a target already holding the first half of the rows (loaded by another ledger), then a
 *   run of all the rows into it, against a bare loop of the same exact e-mail searches at the same
 *   concurrency on an identical target: the run's time from its last record read to its end
 *   (resolve and send) against the loop's. Beside it, the service's floor for that run: the same
 *   searches plus the same writes from a bare client (tasks/bare-search-write.js); the loop's time
 *   over the floor's is the best ratio any client could reach on that target.
 * - `half-stop`: the run of `half` stopped gracefully at 40 % of its load, then the same command:
 *   the continuation's requests and searches (issue 15.1 into a target that holds contacts).
 *
 *   npm run build && node bench/continuation.js --rows 20000
 *   node bench/continuation.js --dist /elsewhere/dist     measure another build (before a change)
 *   node bench/continuation.js --only half --latency 5    the service answers 5 ms later (a LAN)
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { snapshotBuild, startService, task } from './processes.js';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.js';

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    // Every answer of the local service delayed this much: 0 is loopback, 5 a LAN.
    latency: { type: 'string', default: '0' },
    only: { type: 'string' },
    dist: { type: 'string', default: join(import.meta.dirname, '..', 'dist') },
    work: { type: 'string', default: join(tmpdir(), 'contact-import-bench-15') },
  },
});
const ROWS = Number(flags.rows);
const ONLY = flags.only ? new Set(flags.only.split(',')) : undefined;
const WORK = flags.work;
const API_KEY = 'bench_key_0123456789';
const CHUNK = 100;
const CONCURRENCY = 4;
const LATENCY_MS = Number(flags.latency);

mkdirSync(WORK, { recursive: true });
snapshotBuild(resolve(flags.dist), join(import.meta.dirname, 'out', 'snapshot-15'));

const service = (name) =>
  startService(join(WORK, `${name}.sqlite`), API_KEY, LATENCY_MS ? { latencyMs: LATENCY_MS } : {});

const dataset = async (rows) => {
  const file = join(WORK, `generic-${rows}.csv`);
  // Seeded and sequential: the first N rows of a larger file are the file of N rows.
  if (!existsSync(file)) await generate({ format: 'generic', rows, seed: 1, out: file });
  return file;
};
const fresh = (name) => {
  const dir = join(WORK, name);
  rmSync(dir, { recursive: true, force: true });
  return dir;
};
const run = (file, target, name, extra = {}) =>
  task('run-import', {
    file,
    target,
    stateDir: join(WORK, `${name}-state`),
    outDir: fresh(`${name}-out-${Date.now()}`),
    chunkSize: CHUNK,
    concurrency: CONCURRENCY,
    ...extra,
  });
const want = (name) => !ONLY || ONLY.has(name);
const searchesOf = (requests) => requests.byEndpoint?.['GET /v1/search/contacts']?.sent ?? 0;
const results = {
  date: new Date().toISOString(),
  dist: resolve(flags.dist),
  rows: ROWS,
  latencyMs: LATENCY_MS,
};

if (want('interrupt')) {
  const file = await dataset(ROWS);
  const svc = await service('interrupt');
  fresh('interrupt-state');
  const first = await run(file, svc.target, 'interrupt', { abortAtLoad: 0.4 });
  const next = await run(file, svc.target, 'interrupt');
  await svc.stop();
  const loadedFirst = first.totals.created;
  const left = next.totals.created + next.totals.updated;
  results.interrupt = {
    first: {
      status: first.status,
      created: loadedFirst,
      seconds: first.seconds,
      requests: first.requests.sent,
    },
    next: {
      status: next.status,
      created: next.totals.created,
      unchanged: next.totals.unchanged,
      seconds: next.seconds,
      requests: next.requests.sent,
      searches: searchesOf(next.requests),
      afterReadSeconds: next.afterReadSeconds,
      cpuSeconds: next.cpuSeconds,
      contactsPerSecond: left / next.seconds,
    },
    firstContactsPerSecond: loadedFirst / first.seconds,
  };
  console.error(`bench 15: interrupt ${JSON.stringify(results.interrupt)}`);
}

if (want('half')) {
  const file = await dataset(ROWS);
  const half = await dataset(ROWS / 2);
  const forRun = await service('half-run');
  const forLoop = await service('half-loop');
  const forFloor = await service('half-floor');
  fresh('half-a-state');
  fresh('half-b-state');
  fresh('half-c-state');
  fresh('half-run-state');
  await run(half, forRun.target, 'half-a');
  await run(half, forLoop.target, 'half-b');
  await run(half, forFloor.target, 'half-c');
  const ours = await run(file, forRun.target, 'half-run');
  const searches = searchesOf(ours.requests);
  const loop = await task('bare-searches', {
    file,
    url: forLoop.url,
    apiKey: API_KEY,
    concurrency: CONCURRENCY,
    count: searches,
  });
  // The service's floor for the same run: the same searches plus the same writes, nothing else.
  const floor = await task('bare-search-write', {
    file,
    url: forFloor.url,
    apiKey: API_KEY,
    concurrency: CONCURRENCY,
    chunkSize: CHUNK,
  });
  await forRun.stop();
  await forLoop.stop();
  await forFloor.stop();
  results.half = {
    run: {
      totals: ours.totals,
      requests: ours.requests.sent,
      searches,
      seconds: ours.seconds,
      afterReadSeconds: ours.afterReadSeconds,
      cpuSeconds: ours.cpuSeconds,
    },
    loop,
    // Searches a second: the run's (over its resolve-and-send time) against the bare loop's.
    ratio: searches / ours.afterReadSeconds / loop.searchesPerSecond,
    floor,
    // The best ratio any client could reach here: the loop's time over the time the service needs
    // for the run's searches and writes. Under 0.8, the target, not the run, sets the limit.
    bound: loop.seconds / floor.seconds,
    // The run's resolve-and-send time against that floor.
    runVsFloor: floor.seconds / ours.afterReadSeconds,
  };
  console.error(`bench 15: half ${JSON.stringify(results.half)}`);
}

if (want('half-stop')) {
  // Issue 15.1 into a target that holds contacts: the run of `half` stopped gracefully at 40 % of
  // its load, then the same command. Its searches: one per record no run resolved (and the check).
  const file = await dataset(ROWS);
  const half = await dataset(ROWS / 2);
  const svc = await service('half-stop');
  fresh('half-stop-a-state');
  fresh('half-stop-state');
  await run(half, svc.target, 'half-stop-a');
  const first = await run(file, svc.target, 'half-stop', { abortAtLoad: 0.4 });
  const next = await run(file, svc.target, 'half-stop');
  await svc.stop();
  const side = (r) => ({
    status: r.status,
    created: r.totals.created,
    updated: r.totals.updated,
    unchanged: r.totals.unchanged,
    requests: r.requests.sent,
    searches: searchesOf(r.requests),
    seconds: r.seconds,
    afterReadSeconds: r.afterReadSeconds,
  });
  results.halfStop = { first: side(first), next: side(next) };
  console.error(`bench 15: half-stop ${JSON.stringify(results.halfStop)}`);
}

results.machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
console.log(JSON.stringify(results, null, 2));
