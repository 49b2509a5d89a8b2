#!/usr/bin/env node
// CPU seconds one start of the command line costs, by command: what each spawned CLI of the
// end-to-end tests pays before (and while) doing its work. Two builds side by side when --before
// names another build's main.js (a copy of an earlier dist/ inside a checkout of that commit, so
// its pipelines/ and node_modules/ are where it looks); otherwise this build alone.
//
//   node bench/cli-start.js [--runs 7] [--before /path/to/old/dist/cli/main.js]
//
// Each spawn's CPU (user + system) is read from /proc/self/stat's children times around it (Linux):
// the children's times grow by exactly the spawned process's once it is reaped. Sides alternate
// within each round, so a busy neighbour slows both alike; the table holds medians.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, before: { type: 'string' } },
});
const runs = Number(values.runs);
const builds = {
  ...(values.before ? { before: resolve(values.before) } : {}),
  [values.before ? 'after' : 'this build']: join(root, 'dist/cli/main.js'),
};

const { startLocalService } = await import(join(root, 'dist/server/index.js'));
const service = await startLocalService({ host: '127.0.0.1', port: 0 });
const key = service.apiKeys[0];
const cwd = mkdtempSync(join(tmpdir(), 'cli-start-'));
writeFileSync(join(cwd, 'one.csv'), 'full_name,email\nAda Lovelace,ada@example.com\n');

const loadStart = loadavg()[0].toFixed(2);
let n = 0;
const fresh = (name) => {
  n += 1;
  mkdirSync(join(cwd, `${name}-${n}`));
  return join(cwd, `${name}-${n}`);
};
/**
 * The commands measured: a 1-row validate, a 1-row run against the local service (a fresh ledger
 * each time), a 1-row run to the local default target (the service in process, in a fresh folder
 * each time: its database and key go in the working folder), help, a usage error.
 */
const COMMANDS = {
  'validate 1 row': () => [
    'validate',
    'generic',
    'one.csv',
    '--out',
    fresh('out'),
    '--progress-interval',
    '0',
  ],
  'run 1 row': () => [
    'run',
    'generic',
    'one.csv',
    '--target',
    service.url,
    '--out',
    fresh('out'),
    '--state',
    fresh('state'),
    '--progress-interval',
    '0',
  ],
  'run 1 row local': () => ({
    cwd: fresh('local'),
    args: ['run', 'generic', join(cwd, 'one.csv'), '--out', 'out', '--progress-interval', '0'],
  }),
  '--help': () => ['--help'],
  'run --help': () => ['run', '--help'],
  'usage error': () => ['run', 'generic', 'one.csv', '--chunk-sise', '5'],
  '--version': () => ['--version'],
};

const TICK = 100; // clock ticks a second (USER_HZ), as Linux reports them in /proc
const childrenCpu = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After "pid (comm) ": field 3 is the state, so cutime (16) and cstime (17) are at 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / TICK;
};

/** A command's arguments, with the folder it runs in when not the shared one. */
const invocationOf = (made) =>
  Array.isArray(made) ? { args: made, in: cwd } : { args: made.args, in: made.cwd };

const once = (main, made) =>
  new Promise((done, fail) => {
    const { args, in: folder } = invocationOf(made);
    const before = childrenCpu();
    const child = spawn(process.execPath, [main, ...args], {
      cwd: folder,
      // The target gates of the local runs go in the bench's folder, not ~/.cache.
      env: { ...process.env, CONTACT_IMPORT_API_KEY: key, XDG_CACHE_HOME: join(cwd, 'cache') },
      stdio: 'ignore',
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, cpu: childrenCpu() - before }));
  });

const cpu = {};
for (let round = 0; round < runs; round++) {
  for (const [name, args] of Object.entries(COMMANDS)) {
    const sides = Object.entries(builds);
    if (round % 2 === 1) sides.reverse();
    for (const [side, main] of sides) {
      const { code, cpu: seconds } = await once(main, args());
      if (name !== 'usage error' && code !== 0) throw new Error(`${side}: ${name} exited ${code}`);
      ((cpu[name] ??= {})[side] ??= []).push(seconds);
    }
  }
}
await service.close();
rmSync(cwd, { recursive: true, force: true });

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const sides = Object.keys(builds);
console.log(
  `CPU seconds a start (user + system), median of ${runs}, sides alternated; load average ${loadStart} -> ${loadavg()[0].toFixed(2)}`,
);
console.log(
  ['command'.padEnd(16), ...sides.map((s) => s.padStart(10)), values.before ? ' after/before' : ''].join(''),
);
for (const [name, bySide] of Object.entries(cpu)) {
  const cells = sides.map((s) => median(bySide[s]).toFixed(2).padStart(10));
  const ratio = values.before ? (median(bySide.after) / median(bySide.before)).toFixed(2).padStart(13) : '';
  console.log([name.padEnd(16), ...cells, ratio].join(''));
}
