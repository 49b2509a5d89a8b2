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

/** Issue 16.2: no output ever replaces an input. */
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

const snapshot = (path: string) => ({ bytes: readFileSync(path, 'utf8'), mtimeMs: statSync(path).mtimeMs });

describe('outputs never replace inputs', () => {
  it('refuses the fix-and-rerun of rejected.csv into its own --out, and runs it into a new one', async () => {
    const dir = scratch();
    const rows = people(30);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    // Two records without identity are rejected into runs/X/rejected.csv.
    writeFileSync(file, `${readFileSync(file, 'utf8')},,,Nobody,,\n,,,Nobody Either,,\n`);
    const state = join(dir, 'state');
    const first = await runCli(['run', 'generic', file, '--out', 'runs/X', '--state', state], { cwd: dir });
    expect(first.code).toBe(1);
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
    const spelled = await runCli(['run', 'generic', './runs/../runs/X/rejected.csv', '--out', './runs/X/'], {
      cwd: dir,
    });
    expect(spelled.code).toBe(2);
    expect(spelled.stderr).toContain('output_replaces_input');
    expect(readFileSync(rejected, 'utf8')).toBe(before.bytes);

    // The fixed file into a new folder: it runs, and the input is still the user's.
    const fixed = await runCli(
      ['run', 'generic', 'runs/X/rejected.csv', '--out', 'runs/Y', '--state', state],
      {
        cwd: dir,
      },
    );
    expect(fixed.code).toBe(1);
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
    const named = await runCli(['validate', 'generic', input, '--out', out], { cwd: dir });
    expectRefused(named, { shown: input, path: input }, input, before);
    expect(readdirSync(out)).toEqual(['issues.csv']);

    const elsewhere = writeGenericCsv(dir, 'people.csv', people(3));
    const other = join(dir, 'other');
    mkdirSync(other);
    linkSync(elsewhere, join(other, 'report.json'));
    const linkedBefore = snapshot(elsewhere);
    const linked = await runCli(
      ['run', 'generic', elsewhere, '--out', other, '--state', join(dir, 'state')],
      {
        cwd: dir,
      },
    );
    expectRefused(linked, { shown: elsewhere, path: elsewhere }, join(other, 'report.json'), linkedBefore);
  });
});
