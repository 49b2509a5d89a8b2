import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readIssues, readReport, runCli } from '../e2e/harness.js';

/** Through the built CLI: a malformed row costs that row, and `read` counts every record. */
const dir = mkdtempSync(join(tmpdir(), 'ci-malformed-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const goodRows = (count: number): string =>
  Array.from({ length: count }, (_, i) => `Person ${i + 1},p${i + 1}@example.com,Acme\n`).join('');

describe('malformed CSV rows through the CLI', () => {
  it('a stray quote before 1,000 good rows: read 1,002, 1 rejected, 1,001 valid', async () => {
    const input = join(dir, 'stray.csv');
    writeFileSync(
      input,
      `full_name,email,company\nAnn Lee,ann@example.com,Acme\nBad "Quote" x,"bad"x@example.com\n${goodRows(1000)}`,
    );
    const out = join(dir, 'stray-out');
    const result = await runCli(['validate', 'generic', input, '--out', out, '--max-rejects', '1'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(readReport(out).totals).toMatchObject({ read: 1002, rejected: 1, created: 1001 });
    const issues = readIssues(out).filter((issue) => issue.severity === 'error');
    expect(issues).toEqual([
      expect.objectContaining({ file: input, row: '2', code: 'row_unparseable', stage: 'read' }),
    ]);
    expect(issues[0]!.message).toContain('reading resumed at line 4');
  });

  it('a space after a closing quote does not swallow the next row that quotes a field', async () => {
    const input = join(dir, 'space.csv');
    writeFileSync(
      input,
      'full_name,email,company\nJane Doe,"jane@example.com" ,Acme\n"Doe, John",john@example.com,"Acme, Inc."\n"Roe, Rita","rita@example.com",Initech\n',
    );
    const out = join(dir, 'space-out');
    const result = await runCli(['validate', 'generic', input, '--out', out], { cwd: dir });
    expect(result.code).toBe(1);
    expect(readReport(out).totals).toMatchObject({ read: 3, rejected: 1, created: 2 });
  });
});
