import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IssuesFile } from '../../../src/report/issues-file.js';
import { RejectedFile } from '../../../src/report/rejected-file.js';

/** Outputs are written under a temporary name and renamed into place. */
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-atomic-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const issue = {
  file: 'a.csv',
  row: 1,
  line: 2,
  severity: 'error' as const,
  stage: 'read' as const,
  field: '',
  value: 'x',
  code: 'row_ragged' as const,
  message: 'bad',
};

describe('output files', () => {
  it('leave what their final name holds untouched until they are complete', async () => {
    const dir = scratch();
    const issuesPath = join(dir, 'issues.csv');
    const rejectedPath = join(dir, 'rejected.csv');
    writeFileSync(issuesPath, 'precious issues\n');
    writeFileSync(rejectedPath, 'precious rejects\n');
    const issues = new IssuesFile(issuesPath, dir);
    const rejected = new RejectedFile({
      path: rejectedPath,
      format: 'csv',
      rawHeader: 'a,b',
      delimiter: ',',
    });
    issues.add(issue);
    rejected.add({ raw: '1,2', row: 1, errors: ['bad'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readFileSync(issuesPath, 'utf8')).toBe('precious issues\n');
    expect(readFileSync(rejectedPath, 'utf8')).toBe('precious rejects\n');

    await Promise.all([issues.close(), rejected.close()]);
    expect(readFileSync(issuesPath, 'utf8')).toContain('row_ragged');
    expect(readFileSync(rejectedPath, 'utf8')).toBe('a,b,import_row,import_error\n1,2,1,bad\n');
    expect(readdirSync(dir).sort(), 'no temporary file left').toEqual(['issues.csv', 'rejected.csv']);
  });
});
