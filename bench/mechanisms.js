#!/usr/bin/env node
/**
 * Each speed mechanism on and off, side by side in one run, on the run it serves: the command line
 * (dist/cli/main.js, `npm run build` first) in a fresh process per run, the two sides alternated
 * `--repeat` times so a busy neighbour slows both alike. Prints, per mechanism, the median wall
 * seconds, CPU seconds (user + system) and peak RSS of each side, and off / on.
 *
 * - `heap-hint`: the command line's `--heap-growing-percent`, on a dry run (`validate`); off is
 *   V8's own choice (`node --heap-growing-percent=0`, which the command line leaves alone).
 * - `rerun-shortcut`: a second run of the same command on byte-identical inputs, against the same
 *   with `--reread` (the full path: every record read and found unchanged).
 *
 *   node bench/generate.js --format address-book-csv --rows 50000 --seed 1 --out /tmp/b50.csv
 *   node bench/mechanisms.js /tmp/b50.csv [--pipeline address-book-csv] [--repeat 2] [--only heap-hint]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pipeline: { type: 'string', default: 'address-book-csv' },
    repeat: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
});
const input = positionals[0];
if (!input) {
  console.error('usage: node bench/mechanisms.js <file.csv> [--pipeline P] [--repeat 2] [--only a,b]');
  process.exit(2);
}
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'bench-mechanisms-'));
const baseEnv = { ...process.env };
delete baseEnv.NODE_OPTIONS;

/** One command line run under /usr/bin/time: wall and CPU seconds, peak RSS in MB. */
const timed = (args, env = {}, nodeFlags = []) => {
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %U %S %M', process.execPath, ...nodeFlags, cli, ...args],
    {
      env: { ...baseEnv, ...env },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const last = result.stderr.trim().split('\n').pop() ?? '';
  const [wall, user, system, rssKb] = last.split(' ').map(Number);
  if (![0, 1].includes(result.status ?? -1) || wall === undefined || Number.isNaN(wall)) {
    throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  }
  return { wall, cpu: user + system, rss: rssKb / 1024 };
};

let runs = 0;
const fresh = () => {
  const dir = join(work, String(runs++));
  return { state: join(dir, 'state'), out: join(dir, 'out') };
};
const runArgs = ({ state, out }, ...more) => [
  'run',
  flags.pipeline,
  input,
  '--state',
  state,
  '--out',
  out,
  '--max-rejects',
  '100%',
  '--progress-interval',
  '0',
  ...more,
];

const mechanisms = {
  'heap-hint': {
    serves: 'a dry run (validate)',
    on: () => timed(['validate', flags.pipeline, input, '--max-rejects', '100%', '--out', fresh().out]),
    off: () =>
      timed(['validate', flags.pipeline, input, '--max-rejects', '100%', '--out', fresh().out], {}, [
        '--heap-growing-percent=0',
      ]),
  },
  'rerun-shortcut': (() => {
    let state;
    const again = (...more) => timed(runArgs({ state, out: fresh().out }, ...more));
    return {
      serves: 'a second run, inputs unchanged',
      setup: () => {
        ({ state } = fresh());
        timed(runArgs({ state, out: fresh().out }));
      },
      on: () => again(),
      off: () => again('--reread'),
    };
  })(),
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const only = flags.only?.split(',');
const rows = [];
try {
  for (const [name, m] of Object.entries(mechanisms)) {
    if (only && !only.includes(name)) continue;
    m.setup?.();
    const sides = { on: [], off: [] };
    for (let pass = 0; pass < Number(flags.repeat); pass++) {
      const order = pass % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const side of order) sides[side].push(m[side]());
    }
    const of = (side, key) => median(sides[side].map((r) => r[key]));
    rows.push({
      mechanism: name,
      serves: m.serves,
      on: { wall: of('on', 'wall'), cpu: of('on', 'cpu'), rss: of('on', 'rss') },
      off: { wall: of('off', 'wall'), cpu: of('off', 'cpu'), rss: of('off', 'rss') },
      all: sides,
    });
    const r = rows.at(-1);
    console.log(
      `| ${name} | ${r.serves} | ${r.on.wall.toFixed(1)} s, CPU ${r.on.cpu.toFixed(1)} s, RSS ${r.on.rss.toFixed(0)} MB | ` +
        `${r.off.wall.toFixed(1)} s, CPU ${r.off.cpu.toFixed(1)} s, RSS ${r.off.rss.toFixed(0)} MB | ` +
        `${(r.off.wall / r.on.wall).toFixed(2)} wall, ${(r.off.cpu / r.on.cpu).toFixed(2)} CPU, ${(r.off.rss / r.on.rss).toFixed(2)} RSS |`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(rows.map(({ all, ...r }) => ({ ...r, runs: all }))));
