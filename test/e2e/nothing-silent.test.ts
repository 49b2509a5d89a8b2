import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readIssues, readReport, runCli, tempDir } from './harness.js';
import { runAsCli, stopOf } from './cli-in-process.js';

const write = (cwd: string, name: string, content: string) => writeFileSync(join(cwd, name), content);

describe('nothing silent', () => {
  it('columns the pipeline does not read are listed, with the column it most likely meant', async () => {
    const cwd = tempDir();
    write(cwd, 'people.csv', 'full_name,email,compnay,Notes\nAnn Lee,ann@example.com,Acme,met at a fair\n');
    const result = await runCli(['validate', 'generic', 'people.csv', '--out', 'out'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'people.csv: 2 columns not used by the pipeline: "compnay" (the pipeline reads "company"), "Notes"',
    );
    const report = readReport(join(cwd, 'out'));
    expect(report.inputs[0]).toMatchObject({
      unusedColumns: ['compnay', 'Notes'],
      suggestedColumns: { compnay: 'company' },
    });
    // A name column the named built-in would not read loses the people's names: no run at all.
    // (The error the command prints with exit 2, as test/e2e/detect-cli.test.ts sees it printed.)
    write(cwd, 'named.csv', 'name,email,Notes\nAnn Lee,ann@example.com,met at a fair\n');
    const stopped = await stopOf(
      runAsCli({ cwd, pipeline: 'generic', inputs: ['named.csv'], out: 'named', dryRun: true }),
    );
    expect(stopped).toMatchObject({
      code: 'pipeline_mismatch',
      message: expect.stringContaining('pipeline generic would leave the columns name (name)'),
    });
  });

  it('a file with a header and no record says so by name: exit 0, and 1 with --strict', async () => {
    const cwd = tempDir();
    write(cwd, 'header-only.csv', 'full_name,email\r\n');
    const plain = await runCli(['validate', 'generic', 'header-only.csv', '--out', 'a'], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('header-only.csv has no records (nothing after its header)');
    const strict = await runCli(['validate', 'generic', 'header-only.csv', '--out', 'b', '--strict'], {
      cwd,
    });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(
      'Exit 1: header-only.csv had no records, and --strict counts that as a failure.',
    );
    expect(readReport(join(cwd, 'b')).exitCode).toBe(1);
  });
});

describe('messages say what happened to the data', () => {
  it('a dropped phone was left out and the contact loaded; a record without identity was not loaded', async () => {
    const cwd = tempDir();
    write(cwd, 'people.csv', 'full_name,email,phone\nAnn Lee,ann@example.com,123\n,,\n');
    // What issues.csv says: `validate generic people.csv --out out` in this process.
    const { report } = await runAsCli({
      cwd,
      pipeline: 'generic',
      inputs: ['people.csv'],
      out: 'out',
      dryRun: true,
    });
    expect(report.exitCode).toBe(1);
    const issues = readIssues(join(cwd, 'out'));
    const phone = issues.find((issue) => issue.code === 'invalid_phone');
    const noIdentity = issues.find((issue) => issue.code === 'no_identity');
    expect(phone?.message).toMatch(
      /^Phone "123" is not valid: .*\. Left out; the contact is loaded without it\.$/,
    );
    expect(noIdentity?.message).toMatch(/\. The record is not loaded\.$/);
  });
});
