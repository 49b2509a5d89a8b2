import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { people, writeGenericCsv } from './generic-csv.js';
import { outcomes, readIssues, readReport, runCli } from './harness.js';

/** A run that stops still accounts for every record it read. */
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-pending-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('pending: read but not sent', () => {
  it('an aborted run lists the inputs it opened, with their counts, and keeps the invariant', async () => {
    const dir = scratch();
    const good = writeGenericCsv(dir, 'good.csv', people(40));
    // The second input stops the run at its second data row: a line longer than any record may be.
    const bad = join(dir, 'bad.csv');
    const first = 'Late Person,late@example.com,,,,\n';
    writeFileSync(
      bad,
      `full_name,email,phone,job_title,groups,custom.Favorite Color\n${first}${'x'.repeat(17 * 1024 * 1024)}\n`,
    );
    const out = join(dir, 'out');
    const result = await runCli(['run', 'generic', good, bad, '--out', out, '--state', join(dir, 'state')], {
      cwd: dir,
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/input_unreadable/);
    const report = readReport(out);
    expect(report.status).toBe('aborted');
    expect(report.inputs.map((i) => [i.path, i.rows])).toEqual([
      [good, 40],
      [bad, 1],
    ]);
    expect(report.totals.read).toBe(41);
    expect(report.totals).toMatchObject({ created: 0, failed: 0, rejected: 0, pending: 41 });
    expect(outcomes(report)).toBe(report.totals.read);
    // Pending records are no one's mistake: no error row, no rejected file.
    expect(readIssues(out).filter((i) => i.severity === 'error')).toEqual([]);
    expect(existsSync(join(out, 'rejected.1-good.csv'))).toBe(false);
    expect(result.stdout).toContain('41 not sent yet: run the same command to continue');
  });
});
