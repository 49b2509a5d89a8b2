#!/usr/bin/env node
/**
 * What duplicate candidates cost a `validate`: the same generated address-book export validated
 * with `--candidates off` and on, side by side in one run; wall time, the ratio, and peak RSS
 * (GNU time's maximum resident set size when /usr/bin/time is there). Needs a build.
 *
 *   node bench/candidates-cost.js --rows 200000
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '200000' }, seed: { type: 'string', default: '1' } },
});
const root = new URL('..', import.meta.url).pathname;
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
      values.rows,
      '--seed',
      values.seed,
      '--out',
      input,
    ],
    { stdio: 'inherit' },
  );
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%M'] : [];
  const measure = (setting) => {
    const args = [
      process.execPath,
      join(root, 'dist/cli/main.js'),
      'validate',
      input,
      '--pipeline',
      'address-book-csv',
      '--out',
      join(dir, `out-${setting}`),
      '--state',
      join(dir, 'state'),
      '--candidates',
      setting,
      '--progress-interval',
      '0',
    ];
    const started = performance.now();
    const run = spawnSync(time[0] ?? args[0], [...time.slice(1), ...(time.length ? args : args.slice(1))], {
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    const rssKb = time.length ? Number(run.stderr.trim().split('\n').pop()) : NaN;
    const line =
      run.stdout
        .split('\n')
        .find((l) => l.includes('Candidates:'))
        ?.trim() ?? '';
    return {
      setting,
      seconds: Number(seconds.toFixed(1)),
      'peak RSS MB': Math.round(rssKb / 1024),
      candidates: line,
    };
  };
  const off = measure('off');
  const on = measure('on');
  console.table([off, on]);
  console.log(`rows ${values.rows}: candidates on / off = ${(on.seconds / off.seconds).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
