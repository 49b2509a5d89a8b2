import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/core/types.js';
import { IssuesFile } from '../../../src/report/issues-file.js';
import { RejectedFile } from '../../../src/report/rejected-file.js';

const dirs: string[] = [];
const dir = () => {
  const made = mkdtempSync(join(tmpdir(), 'ci-report-'));
  dirs.push(made);
  return made;
};
afterAll(() => {
  for (const made of dirs) rmSync(made, { recursive: true, force: true });
});

const readCsv = (path: string): Record<string, string>[] =>
  parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

const base: Omit<Issue, 'row' | 'line' | 'value' | 'code'> = {
  file: 'a.csv',
  severity: 'warning',
  stage: 'normalize',
  field: 'Email',
  message: 'bad',
};

describe('IssuesFile', () => {
  it('writes every issue with its line after its row, escaped formula cells, and counts codes with one example', async () => {
    const path = join(dir(), 'issues.csv');
    const file = new IssuesFile(path, dir());
    file.add({ ...base, row: 1, line: 2, value: '=HYPERLINK("x")', code: 'invalid_email' });
    file.add({ ...base, row: 2, line: 5, value: 'b@', code: 'invalid_email' });
    file.add({ ...base, row: 3, line: 6, value: 'x'.repeat(1000), code: 'invalid_phone', severity: 'error' });
    file.add({ ...base, row: 0, line: 0, value: '', code: 'unknown_column' });
    await file.close();
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(
      'file,row,line,severity,stage,field,value,code,message',
    );
    const rows = readCsv(path);
    expect(rows.map((r) => [r.row, r.line])).toEqual([
      ['0', ''],
      ['1', '2'],
      ['2', '5'],
      ['3', '6'],
    ]);
    expect(rows[1]).toMatchObject({ value: `'=HYPERLINK("x")`, code: 'invalid_email', severity: 'warning' });
    expect(rows[3]!.value!.length).toBeLessThan(300);
    expect(file.topCodes()).toMatchObject([
      { code: 'invalid_email', count: 2, example: { row: 1, line: 2 } },
      { code: 'invalid_phone', count: 1 },
      { code: 'unknown_column', count: 1 },
    ]);
    expect([file.errors, file.warnings]).toEqual([1, 3]);
  });

  it('sorts rows by file, then row, keeping the order issues of one row came in', async () => {
    const path = join(dir(), 'issues.csv');
    const file = new IssuesFile(path, dir());
    const add = (name: string, row: number, message: string) =>
      file.add({ ...base, file: name, row, line: row + 1, value: '', code: 'invalid_email', message });
    add('b.csv', 2, 'b2 read');
    add('b.csv', 1, 'b1');
    add('a.csv', 10, 'a10');
    add('b.csv', 2, 'b2 dedupe');
    add('a.csv', 9, 'a9');
    add('b.csv', 2, 'b2 load');
    await file.close();
    expect(readCsv(path).map((r) => r.message)).toEqual([
      'a9',
      'a10',
      'b1',
      'b2 read',
      'b2 dedupe',
      'b2 load',
    ]);
  });

  it('sorts more issues than it holds in memory through a scratch file, and removes it', async () => {
    const path = join(dir(), 'issues.csv');
    const scratch = dir();
    const file = new IssuesFile(path, scratch);
    const count = 45_000;
    // Rows come in descending order in two files: every one is out of place.
    for (let row = count; row >= 1; row--) {
      file.add({
        ...base,
        file: row % 2 ? 'odd.csv' : 'even.csv',
        row,
        line: row + 1,
        value: '',
        code: 'invalid_email',
      });
    }
    expect(readdirSync(scratch), 'the rows spilled to a file in the scratch folder').toHaveLength(1);
    await file.close();
    const rows = readCsv(path);
    expect(rows).toHaveLength(count);
    const keys = rows.map((r): [string, number] => [r.file!, Number(r.row)]);
    const sorted = [...keys].sort(([fx, rx], [fy, ry]) => (fx < fy ? -1 : fx > fy ? 1 : rx - ry));
    expect(keys).toEqual(sorted);
    expect(keys[0]).toEqual(['even.csv', 2]);
    expect(readdirSync(scratch)).toEqual([]);
  });
});

describe('RejectedFile', () => {
  it('writes the header and records as read, then import_row and import_error', async () => {
    const path = join(dir(), 'rejected.csv');
    const file = new RejectedFile({ path, format: 'csv', rawHeader: 'Name,Phone,Note', delimiter: ',' });
    file.add({ raw: '"Doe, Jane",555-0100,"line1\nline2"', row: 1, errors: ['no identity'] });
    file.add({
      raw: '=cmd|calc,+1 415 555 0100,ok',
      row: 4,
      errors: ['e-mail "x" is not valid', 'phone too short'],
    });
    file.add({ raw: 'Ann,-2+3,"=1"', row: 7, errors: ['=looks like a formula'] });
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe(
      'Name,Phone,Note,import_row,import_error\n' +
        '"Doe, Jane",555-0100,"line1\nline2",1,no identity\n' +
        `'=cmd|calc,+1 415 555 0100,ok,4,"e-mail ""x"" is not valid; phone too short"\n` +
        `Ann,'-2+3,'=1,7,'=looks like a formula\n`,
    );
  });

  it('fills the columns of a rejected file run again instead of adding them twice', async () => {
    const path = join(dir(), 'rejected.csv');
    const file = new RejectedFile({
      path,
      format: 'tsv',
      rawHeader: 'Name\tEmail\timport_row\timport_error',
      delimiter: '\t',
    });
    file.add({ raw: 'Ann\tann@\t3\told reason', row: 1, errors: ['e-mail "ann@" is not valid'] });
    file.add({ raw: 'Bob\tbob@', row: 2, errors: ['ragged'] });
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe(
      'Name\tEmail\timport_row\timport_error\n' +
        'Ann\tann@\t1\t"e-mail ""ann@"" is not valid"\n' +
        'Bob\tbob@\t2\tragged\n',
    );
  });

  it('adds the two keys to JSON and NDJSON objects; what is not an object is kept beside them', async () => {
    const d = dir();
    const json = new RejectedFile({ path: join(d, 'rejected.json'), format: 'json' });
    json.add({ raw: '{"a":1}', row: 1, errors: ['x'] });
    json.add({ raw: '"just a string"', row: 2, errors: ['not an object'] });
    json.add({ raw: '', row: 3, errors: ['too deep'] });
    json.add({ raw: '{"b":2,"import_row":9,"import_error":"old"}', row: 4, errors: ['y', 'z'] });
    await json.close();
    expect(JSON.parse(readFileSync(join(d, 'rejected.json'), 'utf8'))).toEqual([
      { a: 1, import_row: 1, import_error: 'x' },
      { import_row: 2, import_error: 'not an object', import_original: 'just a string' },
      { import_row: 3, import_error: 'too deep' },
      { b: 2, import_row: 4, import_error: 'y; z' },
    ]);
    const ndjson = new RejectedFile({ path: join(d, 'rejected.ndjson'), format: 'ndjson' });
    ndjson.add({ raw: '{"a":1}', row: 1, errors: ['x'] });
    ndjson.add({ raw: '{"a":', row: 2, errors: ['not JSON'] });
    await ndjson.close();
    expect(readFileSync(join(d, 'rejected.ndjson'), 'utf8')).toBe(
      '{"a":1,"import_row":1,"import_error":"x"}\n' +
        '{"import_row":2,"import_error":"not JSON","import_original":"{\\"a\\":"}\n',
    );
  });

  it('writes nothing when nothing was rejected', async () => {
    const d = dir();
    const none = new RejectedFile({ path: join(d, 'none.csv'), format: 'csv', rawHeader: 'x' });
    await none.close();
    expect(() => readFileSync(join(d, 'none.csv'))).toThrow();
  });
});
