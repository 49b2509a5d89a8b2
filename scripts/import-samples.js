#!/usr/bin/env node
// `npm start`: imports every sample export into the local service (the default target) with its
// built-in pipeline, and prints each run's summary. The samples hold rejected rows on purpose, so
// a share of rejects is allowed for exit 0. Every run goes to the same local database: where it
// is and how to look at it is said once, at the end, not after each run. Arguments are passed to
// every run (`npm start -- --state DIR --target URL`); the runs' folders and the default state
// directory are made in the folder it is started from.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { SAMPLE_RUNS } from './sample-runs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'main.js');
/** The block a run against the local service ends its summary with (src/cli/commands/execute-run.ts). */
const LOCAL_HINT = "Data went to the local service's database";

let hint = '';
const extra = process.argv.slice(2);
for (const [pipeline, ...inputs] of SAMPLE_RUNS) {
  const args = [
    cli,
    'run',
    pipeline,
    ...inputs.map((input) => relative(process.cwd(), join(root, input))),
    '--max-rejects',
    '25%',
    ...extra,
  ];
  const shown = args.slice(2).join(' ');
  process.stdout.write(`\n$ contact-import run ${shown}\n`);
  // The summary is printed once the run ends, so taking stdout whole delays nothing; progress and
  // errors (stderr) go straight to the terminal.
  const { status, stdout } = spawnSync(process.execPath, args, {
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const at = stdout.indexOf(LOCAL_HINT);
  process.stdout.write(at === -1 ? stdout : stdout.slice(0, at));
  if (at !== -1) hint = stdout.slice(at);
  if (status !== 0) {
    process.stdout.write(hint);
    process.exit(status ?? 1);
  }
}
process.stdout.write(`\n${hint}`);
