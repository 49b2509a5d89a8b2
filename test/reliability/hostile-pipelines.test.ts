import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReport, runCli } from '../e2e/harness.js';

/** A pipeline file is data a user may get from anyone; it must not hang or crash the tool. */
const dir = mkdtempSync(join(tmpdir(), 'ci-hostile-pipelines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('hostile pipeline files through the CLI', () => {
  it('a column family of 30 {n} against a header of 40 digits is matched at once (16.11)', async () => {
    const pipeline = write(
      'redos.yaml',
      `name: redos\nname_parts:\n  full: Name\nemails:\n  - column: "Mail ${'{n}'.repeat(30)}!"\n`,
    );
    const input = write('digits.csv', `Name,Mail ${'1'.repeat(40)}\nAnn Lee,ann@example.com\n`);
    const result = await runCli(['validate', pipeline, input, '--out', join(dir, 'redos-out')], {
      cwd: dir,
    });
    // Node's start and the run take a few hundred ms; the backtracking matcher took minutes.
    expect(result.code).toBe(0);
    expect(readReport(join(dir, 'redos-out')).totals).toMatchObject({ read: 1, created: 1 });
  });

  it('a YAML alias bomb exits 2 with one line naming the pipeline file, no stack (16.12)', async () => {
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= 12; i++)
      levels.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const pipeline = write('bomb.yaml', `${levels.join('\n')}\n`);
    const input = write('one.csv', 'full_name,email\nAnn Lee,ann@example.com\n');
    const result = await runCli(['validate', pipeline, input], { cwd: dir });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/pipeline_invalid: .*bomb\.yaml:2: not valid YAML: its aliases expand/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('other YAML errors stay one line with file:line', async () => {
    const pipeline = write('broken.yaml', 'name: x\nemails:\n  - column: [a, b\n');
    const input = write('two.csv', 'full_name,email\nAnn Lee,ann@example.com\n');
    const result = await runCli(['validate', pipeline, input], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/pipeline_invalid: broken\.yaml:\d+: not valid YAML/);
  });
});
