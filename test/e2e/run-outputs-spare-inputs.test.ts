import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { people, writeGenericCsv } from './generic-csv.js';
import { readReport, runCli } from './harness.js';
import { runAsCli, stopOf } from './cli-in-process.js';

/** No output ever replaces an input. */
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-spare-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HEADER = 'full_name,email,phone,job_title,groups,custom.Favorite Color\n';

/** Exit 2 before reading, one line naming the output and the input, and the input untouched. */
const expectRefused = (
  result: { code: number | null; stderr: string },
  input: { shown: string; path: string },
  output: string,
  before: { bytes: string; mtimeMs: number },
) => {
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('output_replaces_input');
  expect(lines[0]).toContain(`the output ${output}`);
  expect(lines[0]).toContain(`the input ${input.shown}`);
  expect(readFileSync(input.path, 'utf8')).toBe(before.bytes);
  expect(statSync(input.path).mtimeMs).toBe(before.mtimeMs);
};

/**
 * The same refusal through the library in this process: the error the command prints as that
 * line (the command line's own part is checked once, with expectRefused).
 */
const expectRefusedIn = async (
  run: Promise<unknown>,
  input: { shown: string; path: string },
  output: string,
  before: { bytes: string; mtimeMs: number },
) => {
  const stop = await stopOf(run as ReturnType<typeof runAsCli>);
  expect(stop?.code).toBe('output_replaces_input');
  expect(stop?.message).toContain(`the output ${output}`);
  expect(stop?.message).toContain(`the input ${input.shown}`);
  expect(readFileSync(input.path, 'utf8')).toBe(before.bytes);
  expect(statSync(input.path).mtimeMs).toBe(before.mtimeMs);
};

const snapshot = (path: string) => ({ bytes: readFileSync(path, 'utf8'), mtimeMs: statSync(path).mtimeMs });

describe('outputs never replace inputs', () => {
  it('refuses the fix-and-rerun of rejected.csv into its own --out, and runs it into a new one', async () => {
    const dir = scratch();
    const rows = people(30);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    // Two records without identity are rejected into runs/X/rejected.csv.
    writeFileSync(file, `${readFileSync(file, 'utf8')},,,Nobody,,\n,,,Nobody Either,,\n`);
    const state = join(dir, 'state');
    // `run generic <input> --out <out> --state state` in this process where the command line's
    // own output is not what is checked.
    const runIn = (input: string, out: string, more: { state?: string } = { state: 'state' }) =>
      runAsCli({ cwd: dir, pipeline: 'generic', inputs: [input], out, ...more });
    const first = await runIn(file, 'runs/X');
    expect(first.report.exitCode).toBe(1);
    const rejected = join(dir, 'runs/X/rejected.csv');
    const firstReport = readFileSync(join(dir, 'runs/X/report.json'), 'utf8');
    const before = snapshot(rejected);
    expect(before.bytes.split('\n').filter(Boolean)).toHaveLength(3);

    // As the user types it (relative paths), and spelled another way.
    const again = await runCli(
      ['run', 'generic', 'runs/X/rejected.csv', '--out', 'runs/X', '--state', state],
      {
        cwd: dir,
      },
    );
    expectRefused(again, { shown: 'runs/X/rejected.csv', path: rejected }, rejected, before);
    expect(readFileSync(join(dir, 'runs/X/report.json'), 'utf8'), 'nothing written').toBe(firstReport);
    const spelled = await stopOf(runIn(`${dir}/./runs/../runs/X/rejected.csv`, `${dir}/./runs/X/`, {}));
    expect(spelled?.code).toBe('output_replaces_input');
    expect(readFileSync(rejected, 'utf8')).toBe(before.bytes);

    // The fixed file into a new folder: it runs, and the input is still the user's.
    const fixed = await runIn('runs/X/rejected.csv', 'runs/Y');
    expect(fixed.report.exitCode).toBe(1);
    expect(readReport(join(dir, 'runs/Y')).totals.read).toBe(2);
    expect(readFileSync(rejected, 'utf8')).toBe(before.bytes);
  });

  it('refuses an input named issues.csv in --out, and a hard link to an input under an output name', async () => {
    const dir = scratch();
    const out = join(dir, 'out');
    mkdirSync(out);
    const input = join(out, 'issues.csv');
    writeFileSync(input, `${HEADER}Jane Doe,jane@example.com,,,,\n`);
    const before = snapshot(input);
    const named = runAsCli({ cwd: dir, pipeline: 'generic', inputs: [input], out, dryRun: true });
    await expectRefusedIn(named, { shown: input, path: input }, input, before);
    expect(readdirSync(out)).toEqual(['issues.csv']);

    const elsewhere = writeGenericCsv(dir, 'people.csv', people(3));
    const other = join(dir, 'other');
    mkdirSync(other);
    linkSync(elsewhere, join(other, 'report.json'));
    const linkedBefore = snapshot(elsewhere);
    const linked = runAsCli({
      cwd: dir,
      pipeline: 'generic',
      inputs: [elsewhere],
      out: other,
      state: 'state',
    });
    await expectRefusedIn(
      linked,
      { shown: elsewhere, path: elsewhere },
      join(other, 'report.json'),
      linkedBefore,
    );
  });
});
