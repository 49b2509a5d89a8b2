#!/usr/bin/env node
/**
 * A weekly sync run against a plain rerun of the same file, side by side: 200,000 people loaded
 * (week 1), then week 2 with 1% gone and 1% changed (a second e-mail dropped, a title emptied).
 * Each of the two loads its own local service (a process of its own, an on-disk database) through
 * the built CLI; then week 2 is run on each, timed: `run --sync bench` on one, `run` on the other.
 * Prints the two times and their ratio (the target: <= 1.3).
 *
 *   node bench/sync.js [--rows 200000]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeFlags, startService } from './processes.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' } } });
const ROWS = Number(values.rows);
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
    const child = spawn(process.execPath, [...nodeFlags(), CLI, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CONTACT_IMPORT_API_KEY: KEY },
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`contact-import ${args.join(' ')} exited with ${code}`));
      else resolve(seconds);
    });
  });

const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
const services = [];
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
      join(dir, `state-${name}`),
      '--out',
      join(dir, `out-${name}-${Date.now()}`),
      ...extra,
    ]);
  };
  for (const name of ['sync', 'plain']) {
    const service = await startService(join(dir, `${name}.sqlite`), KEY);
    services.push({ name, ...service });
  }
  process.stderr.write(`week 1: ${ROWS} rows into two local services...\n`);
  await run('sync', week1, ['--sync', 'bench']);
  await run('plain', week1, []);
  process.stderr.write('week 2, timed: a plain run, then the sync run...\n');
  const plain = await run('plain', week2, []);
  const sync = await run('sync', week2, ['--sync', 'bench', '--max-archive', '2%']);
  process.stdout.write(
    `${JSON.stringify({ rows: ROWS, plainSeconds: +plain.toFixed(2), syncSeconds: +sync.toFixed(2), ratio: +(sync / plain).toFixed(3) })}\n`,
  );
} finally {
  for (const s of services) await s.stop();
  rmSync(dir, { recursive: true, force: true });
}
