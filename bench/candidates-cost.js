#!/usr/bin/env node
/**
 * What duplicate candidates cost a `validate`: the same generated address-book export validated
 * with `--candidates off` and on, side by side in one run, at each size given; wall time, the
 * ratio, and peak RSS (GNU time's maximum resident set size when /usr/bin/time is there). Then the
 * matcher alone on the same rows (read with csv-parse, as the address-book columns say): the
 * pairs it compares per record, which must stay flat as the rows grow. Needs a build.
 *
 * With `--baseline DIR` (another built checkout, e.g. of the commit before a change), that build's
 * `validate --candidates on` runs too, between the two, so before and after share the host's load.
 *
 *   node bench/candidates-cost.js --rows 50000,200000 [--baseline /path/to/other/checkout]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { findCandidates } from '../dist/candidates/index.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000,200000' },
    seed: { type: 'string', default: '1' },
    'matcher-only': { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
const root = new URL('..', import.meta.url).pathname;
const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%M %U %S'] : [];

/**
 * Wall time, CPU time (user + system: on a shared host, less swayed by the others' load than the
 * wall time) and peak RSS of one `validate`.
 */
const measure = (dir, input, setting, build = root) => {
  const args = [
    process.execPath,
    join(build, 'dist/cli/main.js'),
    'validate',
    input,
    '--pipeline',
    'address-book-csv',
    '--out',
    join(dir, `out-${setting}${build === root ? '' : '-baseline'}`),
    '--state',
    // Its own state for the baseline: the same command again could be taken for a rerun.
    join(dir, build === root ? 'state' : 'state-baseline'),
    '--candidates',
    setting,
    '--progress-interval',
    '0',
  ];
  const started = performance.now();
  const run = spawnSync(time[0] ?? args[0], [...time.slice(1), ...(time.length ? args : args.slice(1))], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - started) / 1000;
  const [rssKb, user, system] = time.length
    ? run.stderr.trim().split('\n').pop().split(' ').map(Number)
    : [NaN, NaN, NaN];
  const line =
    run.stdout
      .split('\n')
      .find((l) => l.includes('Candidates:'))
      ?.trim() ?? '';
  return { seconds, cpu: user + system, rssMb: Math.round(rssKb / 1024), line };
};

/** The matcher alone on the export's rows: pairs compared per record and its own time. */
const matcherAlone = (input) => {
  const rows = parse(readFileSync(input), { columns: true, relax_column_count: true, bom: true });
  const split = (cell) => (cell ? cell.split(' ::: ').filter(Boolean) : []);
  const people = rows.map((row) => ({
    firstName: row['First Name'],
    lastName: row['Last Name'],
    emails: [...split(row['E-mail 1 - Value']), ...split(row['E-mail 2 - Value'])],
    phones: [...split(row['Phone 1 - Value']), ...split(row['Phone 2 - Value'])],
    company: row['Organization Name'],
    jobTitle: row['Organization Title'],
    birthday: row.Birthday,
  }));
  const started = performance.now();
  const { counts } = findCandidates(people);
  return {
    records: people.length,
    ms: performance.now() - started,
    pairsPerRecord: counts.compared / people.length,
    blocksSkipped: counts.blocksSkipped,
    likely: counts.likely,
    possible: counts.possible,
  };
};

const table = [];
for (const rows of values.rows.split(',')) {
  const dir = mkdtempSync(join(tmpdir(), 'candidates-cost-'));
  try {
    const input = join(dir, 'address-book.csv');
    spawnSync(
      process.execPath,
      [
        join(root, 'bench/generate.js'),
        '--format',
        'address-book-csv',
        '--rows',
        rows,
        '--seed',
        values.seed,
        '--out',
        input,
      ],
      { stdio: 'inherit' },
    );
    const alone = matcherAlone(input);
    const entry = {
      rows: Number(rows),
      'pairs/record': alone.pairsPerRecord.toFixed(2),
      'matcher s': (alone.ms / 1000).toFixed(1),
      'big blocks': alone.blocksSkipped,
    };
    if (!values['matcher-only']) {
      const off = measure(dir, input, 'off');
      const before = values.baseline ? measure(dir, input, 'on', values.baseline) : undefined;
      const on = measure(dir, input, 'on');
      if (before)
        Object.assign(entry, {
          'baseline on s': before.seconds.toFixed(1),
          'baseline on/off': (before.seconds / off.seconds).toFixed(2),
          'baseline on cpu/off': (before.cpu / off.cpu).toFixed(2),
          'baseline on RSS MB': before.rssMb,
        });
      Object.assign(entry, {
        'off s': off.seconds.toFixed(1),
        'on s': on.seconds.toFixed(1),
        'on/off': (on.seconds / off.seconds).toFixed(2),
        'off cpu s': off.cpu.toFixed(1),
        'on cpu s': on.cpu.toFixed(1),
        'on cpu/off': (on.cpu / off.cpu).toFixed(2),
        'off RSS MB': off.rssMb,
        'on RSS MB': on.rssMb,
      });
      console.log(`rows ${rows}: ${on.line}`);
    }
    table.push(entry);
    console.log(JSON.stringify(entry));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.table(table);
