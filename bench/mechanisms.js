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
 * - `load-while-reading`: a live run of the input into an empty target (the local service in its
 *   own process, a fresh database per run), against the same build with the load made to wait for
 *   the end of reading (its one switch, `follows` in run/stages.ts, set false in a copy of the
 *   bundle).
 * - `forced-gc`: a live run of wide rows (`--wide-rows` rows of 30 KB descriptions, so each
 *   request body passes 1 MB) into an empty target, against the same build with the collection
 *   after large bodies never made (reclaim.ts's threshold set to Infinity in a copy of the bundle).
 * - `issue-spool`: a dry run (validate) of `--issue-rows` rows with an issue each (an invalid
 *   e-mail, left out), so issues.csv has a row per input row, against the same build
 *   with every issue row held in memory (issue-spool.ts's threshold set to Infinity).
 *
 * Switches that exist only in a copy of the bundle are found by their text: a build whose text no
 * longer matches stops the script (update the pattern here).
 *
 *   node bench/generate.js --format address-book-csv --rows 50000 --seed 1 --out /tmp/b50.csv
 *   node bench/mechanisms.js /tmp/b50.csv [--pipeline address-book-csv] [--repeat 2] [--only heap-hint]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from './processes.js';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pipeline: { type: 'string', default: 'address-book-csv' },
    repeat: { type: 'string', default: '2' },
    only: { type: 'string' },
    'wide-rows': { type: 'string', default: '600' },
    'issue-rows': { type: 'string', default: '200000' },
  },
});
const input = positionals[0];
if (!input) {
  console.error('usage: node bench/mechanisms.js <file.csv> [--pipeline P] [--repeat 2] [--only a,b]');
  process.exit(2);
}
const dist = new URL('../dist', import.meta.url).pathname;
const cli = join(dist, 'cli', 'main.js');
const work = mkdtempSync(join(tmpdir(), 'bench-mechanisms-'));
const baseEnv = { ...process.env };
delete baseEnv.NODE_OPTIONS;
const API_KEY = 'bench_key_0123456789';

/**
 * A copy of the build (inside the repository, so node_modules resolves) with one mechanism
 * switched off: each `[from, to]` replaced in the command line's bundle, where it must occur once.
 */
const variant = (name, patches) => {
  const root = new URL(`./out/mechanisms-${name}/`, import.meta.url).pathname;
  rmSync(root, { recursive: true, force: true });
  cpSync(dist, join(root, 'dist'), { recursive: true });
  // What the tool finds beside its dist/: the built-in pipelines and the nickname list.
  for (const folder of ['pipelines', 'data'])
    cpSync(new URL(`../${folder}`, import.meta.url).pathname, join(root, folder), { recursive: true });
  cpSync(new URL('../package.json', import.meta.url).pathname, join(root, 'package.json'));
  const cliDir = join(root, 'dist', 'cli');
  const files = readdirSync(cliDir).filter((f) => f.endsWith('.js'));
  for (const [from, to] of patches) {
    const hits = files.filter((f) => readFileSync(join(cliDir, f), 'utf8').split(from).length === 2);
    const total = files.reduce((n, f) => n + readFileSync(join(cliDir, f), 'utf8').split(from).length - 1, 0);
    if (hits.length !== 1 || total !== 1)
      throw new Error(`${name}: \`${from}\` found ${total} times in the bundle`);
    const path = join(cliDir, hits[0]);
    writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  }
  return join(cliDir, 'main.js');
};

/** One command line run under /usr/bin/time: wall and CPU seconds, peak RSS in MB. */
const timed = (args, env = {}, nodeFlags = [], main = cli) => {
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%e %U %S %M', process.execPath, ...nodeFlags, main, ...args],
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
const runArgs = ({ state, out }, ...more) => runOf(flags.pipeline, input, { state, out }, ...more);
const runOf = (pipeline, file, { state, out }, ...more) => [
  'run',
  pipeline,
  file,
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

/** A live run into an empty target: the local service in its own process, on a fresh database. */
const liveRun = async (pipeline, file, main) => {
  const dir = fresh();
  const db = join(work, `service-${runs}.sqlite`);
  const service = await startService(db, API_KEY);
  try {
    return timed(
      runOf(pipeline, file, dir, '--target', service.url),
      { CONTACT_IMPORT_API_KEY: API_KEY },
      [],
      main,
    );
  } finally {
    await service.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  }
};

/** `rows` rows of `width`-character descriptions: with 30 KB rows, a chunk of 100 is a 3 MB body. */
const wideFile = (rows, width) => {
  const path = join(work, `wide-${rows}.csv`);
  const lines = ['full_name,email,description'];
  for (let i = 0; i < rows; i++)
    lines.push(`Wide Person${i},wide.${i}@example.com,${`${i} `.padEnd(width, 'x')}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

/** `rows` rows with an issue each: an invalid e-mail (left out; the row is known by its name). */
const issueFile = (rows) => {
  const path = join(work, `issues-${rows}.csv`);
  const lines = ['full_name,email'];
  for (let i = 0; i < rows; i++) lines.push(`Person ${i},not-an-address-${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

mechanisms['load-while-reading'] = (() => {
  let off;
  return {
    serves: 'a live run into an empty target',
    setup: () => {
      off = variant('load-while-reading', [
        [
          'const follows = settings.sync === void 0 &&',
          'const follows = false && settings.sync === void 0 &&',
        ],
      ]);
    },
    on: () => liveRun(flags.pipeline, input, cli),
    off: () => liveRun(flags.pipeline, input, off),
  };
})();

mechanisms['forced-gc'] = (() => {
  let off;
  let file;
  return {
    serves: 'a live run of wide rows (1 MB bodies and more)',
    setup: () => {
      off = variant('forced-gc', [
        ['var LARGE_BODY_BYTES = 1024 * 1024;', 'var LARGE_BODY_BYTES = Infinity;'],
      ]);
      file = wideFile(Number(flags['wide-rows']), 30_000);
    },
    on: () => liveRun('generic', file, cli),
    off: () => liveRun('generic', file, off),
  };
})();

mechanisms['issue-spool'] = (() => {
  let off;
  let file;
  const validate = (main) =>
    timed(['validate', 'generic', file, '--max-rejects', '100%', '--out', fresh().out], {}, [], main);
  return {
    serves: 'a dry run whose every row is an issue',
    setup: () => {
      off = variant('issue-spool', [['var IN_MEMORY = 2e4;', 'var IN_MEMORY = Infinity;']]);
      file = issueFile(Number(flags['issue-rows']));
    },
    on: () => validate(cli),
    off: () => validate(off),
  };
})();

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
    const load = [loadavg()[0]];
    for (let pass = 0; pass < Number(flags.repeat); pass++) {
      const order = pass % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const side of order) sides[side].push(await m[side]());
      load.push(loadavg()[0]);
    }
    const of = (side, key) => median(sides[side].map((r) => r[key]));
    rows.push({
      mechanism: name,
      serves: m.serves,
      on: { wall: of('on', 'wall'), cpu: of('on', 'cpu'), rss: of('on', 'rss') },
      off: { wall: of('off', 'wall'), cpu: of('off', 'cpu'), rss: of('off', 'rss') },
      load,
      all: sides,
    });
    const r = rows.at(-1);
    console.log(
      `| ${name} | ${r.serves} | ${r.on.wall.toFixed(1)} s, CPU ${r.on.cpu.toFixed(1)} s, RSS ${r.on.rss.toFixed(0)} MB | ` +
        `${r.off.wall.toFixed(1)} s, CPU ${r.off.cpu.toFixed(1)} s, RSS ${r.off.rss.toFixed(0)} MB | ` +
        `${(r.off.wall / r.on.wall).toFixed(2)} wall, ${(r.off.cpu / r.on.cpu).toFixed(2)} CPU, ${(r.off.rss / r.on.rss).toFixed(2)} RSS | load ${load.map((l) => l.toFixed(1)).join(', ')} |`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(rows.map(({ all, ...r }) => ({ ...r, runs: all }))));
