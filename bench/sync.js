#!/usr/bin/env node
/**
 * A weekly sync run against a plain rerun of the same file, side by side: 200,000 people loaded
 * (week 1), then week 2 with 1% gone and 1% changed (a second e-mail dropped, a title emptied).
 * Each of the two loads its own local service (a process of its own, an on-disk database) through
 * the built CLI; then week 2 is run on each, timed: `run --sync bench` on one, `run` on the other.
 * `--pairs N` times N such pairs, each from a copy of week 1's databases and states, which of the
 * two goes first alternating (the machine's load moves both). Prints each pair's times, ratio and
 * load average on stderr, then the medians (the target: a ratio <= 1.3). `BENCH_CPU_PROF=DIR`:
 * every process writes a CPU profile there.
 *
 *   node bench/sync.js [--rows 200000] [--pairs 1]
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeFlags, startService } from './processes.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '200000' }, pairs: { type: 'string', default: '1' } },
});
const ROWS = Number(values.rows);
const PAIRS = Number(values.pairs);
// BENCH_DIST: a snapshot of the build (processes.js snapshotBuild), so a rebuild meanwhile changes nothing.
const CLI = join(process.env.BENCH_DIST ?? join(import.meta.dirname, '..', 'dist'), 'cli', 'main.js');
const KEY = 'bench_sync_key_0123456789';

const row = (i, changed) =>
  [
    `Person Number${i}`,
    `person.${i}@example.com`,
    changed ? '' : `p${i}.home@example.org`,
    `+1 415 ${String(2000000 + i).slice(-7, -4)} ${String(i).padStart(4, '0').slice(-4)}`,
    changed ? '' : `Engineer ${i % 97}`,
    'Acme',
  ].join(',');

const writeWeek = (path, gone, changed) => {
  const lines = ['full_name,email,email_2,phone,job_title,company'];
  for (let i = 0; i < ROWS; i++) if (!gone(i)) lines.push(row(i, changed(i)));
  writeFileSync(path, `${lines.join('\n')}\n`);
};

const cli = (args) =>
  new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // The CLI's own CPU seconds (user + system), by /usr/bin/time when there is one.
    const cpuFile = join(dir, `cpu-${started}.txt`);
    const timed = existsSync('/usr/bin/time');
    const command = [process.execPath, ...nodeFlags(), CLI, ...args];
    const [program, ...rest] = timed ? ['/usr/bin/time', '-f', '%U %S', '-o', cpuFile, ...command] : command;
    const child = spawn(program, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CONTACT_IMPORT_API_KEY: KEY },
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`contact-import ${args.join(' ')} exited with ${code}`));
      else {
        const cpu = timed
          ? readFileSync(cpuFile, 'utf8')
              .trim()
              .split(/\s+/)
              .map(Number)
              .reduce((a, b) => a + b, 0)
          : NaN;
        resolve({ seconds, cpu });
      }
    });
  });

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
let services = [];
const stopServices = async () => {
  for (const s of services) await s.stop();
  services = [];
};
// Week 1 is loaded once; each pair starts from a copy of the loaded databases and states.
const db = (name, at = dir) => join(at, `${name}.sqlite`);
const state = (name, at = dir) => join(at, `state-${name}`);
const copyLoaded = (from, to) => {
  for (const name of ['sync', 'plain']) {
    rmSync(state(name, to), { recursive: true, force: true });
    cpSync(state(name, from), state(name, to), { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(db(name, to) + suffix, { force: true });
      if (existsSync(db(name, from) + suffix)) cpSync(db(name, from) + suffix, db(name, to) + suffix);
    }
  }
};
try {
  const week1 = join(dir, 'week1.csv');
  const week2 = join(dir, 'week2.csv');
  writeWeek(
    week1,
    () => false,
    () => false,
  );
  // 1% gone (every 100th), 1% changed (every 100th, one further on).
  writeWeek(
    week2,
    (i) => i % 100 === 0,
    (i) => i % 100 === 50,
  );
  const run = async (name, file, extra) => {
    const service = services.find((s) => s.name === name);
    return cli([
      'run',
      'generic',
      file,
      '--target',
      service.url,
      '--state',
      state(name),
      '--out',
      join(dir, `out-${name}-${Date.now()}`),
      ...extra,
    ]);
  };
  const ports = new Map();
  for (const name of ['sync', 'plain']) {
    const service = await startService(db(name), KEY);
    ports.set(name, Number(new URL(service.url).port));
    services.push({ name, ...service });
  }
  process.stderr.write(`week 1: ${ROWS} rows into two local services...\n`);
  await run('sync', week1, ['--sync', 'bench']);
  await run('plain', week1, []);
  await stopServices();
  const loaded = join(dir, 'loaded');
  mkdirSync(loaded);
  copyLoaded(dir, loaded);
  const pairs = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    if (pair > 0) copyLoaded(loaded, dir);
    for (const name of ['sync', 'plain']) {
      const service = await startService(db(name), KEY, { reuse: true, port: ports.get(name) });
      services.push({ name, ...service });
    }
    // Alternately first: a load that changes during a pair weighs on both runs, in turn.
    const order = pair % 2 === 0 ? ['plain', 'sync'] : ['sync', 'plain'];
    process.stderr.write(`week 2, pair ${pair + 1} of ${PAIRS}, timed: ${order.join(' then ')}...\n`);
    const timed = {};
    for (const name of order) {
      const load1 = loadavg()[0];
      const { seconds, cpu } = await run(
        name,
        week2,
        name === 'sync' ? ['--sync', 'bench', '--max-archive', '2%'] : [],
      );
      timed[name] = { seconds: +seconds.toFixed(2), cpu: +cpu.toFixed(2), load1: +load1.toFixed(2) };
    }
    await stopServices();
    const result = {
      pair: pair + 1,
      first: order[0],
      plainSeconds: timed.plain.seconds,
      syncSeconds: timed.sync.seconds,
      plainCpu: timed.plain.cpu,
      syncCpu: timed.sync.cpu,
      ratio: +(timed.sync.seconds / timed.plain.seconds).toFixed(3),
      loadAverage1m: [timed[order[0]].load1, timed[order[1]].load1],
    };
    process.stderr.write(`${JSON.stringify(result)}\n`);
    pairs.push(result);
  }
  process.stdout.write(
    `${JSON.stringify({
      rows: ROWS,
      pairs: pairs.length,
      plainSeconds: +median(pairs.map((p) => p.plainSeconds)).toFixed(2),
      syncSeconds: +median(pairs.map((p) => p.syncSeconds)).toFixed(2),
      plainCpu: +median(pairs.map((p) => p.plainCpu)).toFixed(2),
      syncCpu: +median(pairs.map((p) => p.syncCpu)).toFixed(2),
      ratio: +median(pairs.map((p) => p.ratio)).toFixed(3),
      ratios: pairs.map((p) => p.ratio),
    })}\n`,
  );
} finally {
  await stopServices();
  rmSync(dir, { recursive: true, force: true });
}
