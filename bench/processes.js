// What the bench's drivers (run.js, continuation.js) share: a snapshot of the build to measure,
// and each task in a fresh node process.
import { spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * `BENCH_CPU_PROF=DIR`: every task (the local service included) writes a V8 CPU profile to DIR
 * (`--cpu-prof` is refused in NODE_OPTIONS, so it is passed here).
 */
export const nodeFlags = () =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/**
 * Copies `dist` (with the built-in pipelines, data/ and package.json found beside it: the tool reads
 * its version there) to `snapshot`, inside the repository so node_modules still resolves; a rebuild
 * meanwhile changes nothing under measurement. The tasks load the snapshot (BENCH_DIST).
 */
export const snapshotBuild = (dist, snapshot) => {
  rmSync(snapshot, { recursive: true, force: true });
  cpSync(dist, join(snapshot, 'dist'), { recursive: true });
  cpSync(join(dist, '..', 'pipelines'), join(snapshot, 'pipelines'), { recursive: true });
  // The nickname table and the like that the build reads beside it at run time.
  cpSync(join(dist, '..', 'data'), join(snapshot, 'data'), { recursive: true });
  cpSync(join(dist, '..', 'package.json'), join(snapshot, 'package.json'));
  process.env.BENCH_DIST = join(snapshot, 'dist');
};

/** Runs bench/tasks/<name>.js in a fresh node process and returns the JSON line it prints last. */
export const task = (name, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags(), join(import.meta.dirname, 'tasks', `${name}.js`), JSON.stringify(args)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`bench task ${name} exited with ${code}: ${out}`));
      else resolve(JSON.parse(line));
    });
  });

/**
 * The local service in its own process (bench/tasks/serve.js) on a fresh on-disk database `db`;
 * `options` go to the service (latencyMs, rateLimit, port, ...). `reuse: true` opens `db` as it
 * is (a copy of a database loaded before, on the port it was loaded on: a state's ledger scope is
 * that of the target's address).
 */
export const startService = async (db, apiKey, { reuse = false, ...options } = {}) => {
  if (!reuse) for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags(),
      join(import.meta.dirname, 'tasks', 'serve.js'),
      JSON.stringify({ db, apiKey, ...options }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const first = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the local service exited with ${code}`)));
  });
  const { url } = JSON.parse(first);
  return {
    url,
    target: { url, apiKey },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
};
