import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { IssuesFile } from '../../../src/report/issues-file.js';
import { RejectedFile } from '../../../src/report/rejected-file.js';

const dir = () => mkdtempSync(join(tmpdir(), 'ci-report-'));

describe('IssuesFile', () => {
  it('writes every issue with escaped formula cells and counts codes with one example', async () => {
    const path = join(dir(), 'issues.csv');
    const file = new IssuesFile(path);
    const base = {
      file: 'a.csv',
      severity: 'warning' as const,
      stage: 'normalize' as const,
      field: 'Email',
      message: 'bad',
    };
    file.add({ ...base, row: 1, value: '=HYPERLINK("x")', code: 'invalid_email' });
    file.add({ ...base, row: 2, value: 'b@', code: 'invalid_email' });
    file.add({ ...base, row: 3, value: 'x'.repeat(1000), code: 'invalid_phone', severity: 'error' });
    await file.close();
    const rows = parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      row: '1',
      value: `'=HYPERLINK("x")`,
      code: 'invalid_email',
      severity: 'warning',
    });
    expect(rows[2]!.value!.length).toBeLessThan(300);
    expect(file.topCodes()).toMatchObject([
      { code: 'invalid_email', count: 2, example: { row: 1 } },
      { code: 'invalid_phone', count: 1 },
    ]);
    expect([file.errors, file.warnings]).toEqual([1, 2]);
  });
});

describe('RejectedFile', () => {
  it('writes the header and records verbatim, escaping only formula-leading cells', async () => {
    const path = join(dir(), 'rejected.csv');
    const file = new RejectedFile({ path, format: 'csv', rawHeader: 'Name,Phone,Note', delimiter: ',' });
    file.add('"Doe, Jane",555-0100,"line1\nline2"');
    file.add('=cmd|calc,+1 415 555 0100,ok');
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe(
      `Name,Phone,Note\n"Doe, Jane",555-0100,"line1\nline2"\n'=cmd|calc,'+1 415 555 0100,ok\n`,
    );
  });

  it('writes JSON inputs back as a JSON array, and writes nothing when nothing was rejected', async () => {
    const d = dir();
    const json = new RejectedFile({ path: join(d, 'rejected.json'), format: 'json' });
    json.add('{"a":1}');
    json.add('{"b":2}');
    await json.close();
    expect(JSON.parse(readFileSync(join(d, 'rejected.json'), 'utf8'))).toEqual([{ a: 1 }, { b: 2 }]);
    const none = new RejectedFile({ path: join(d, 'none.csv'), format: 'csv', rawHeader: 'x' });
    await none.close();
    expect(() => readFileSync(join(d, 'none.csv'))).toThrow();
  });
});
