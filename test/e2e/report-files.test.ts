import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { readIssues, readReport, runCli, startService, tempDir, type TestService } from './harness.js';
import { runImport } from '../../src/run/run.js';

/**
 * issues.csv has the line of each record (as an editor shows it) and is sorted by
 * file, then row; rejected files carry import_row and import_error, keep phone numbers as
 * written, and run again as they are once fixed. The first file through the built CLI; the others
 * in this process (what the files hold is the library's, whatever starts the run).
 */
const dir = mkdtempSync(join(tmpdir(), 'ci-report-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/**
 * `validate generic <inputs> --out <out>` (a dry run, no target) or `run generic <inputs> --out
 * <out> --state <state> [--target <svc>]` in this process; its exit code.
 */
const inProcess = async (
  inputs: string[],
  out: string,
  run?: { stateDir: string; svc?: TestService },
): Promise<number> =>
  (
    await runImport({
      pipeline: 'generic',
      inputs,
      outDir: out,
      ...(run
        ? {
            stateDir: run.stateDir,
            ...(run.svc ? { target: { url: run.svc.service.url, apiKey: run.svc.key } } : {}),
          }
        : { dryRun: true, stateDir: join(dir, 'validate-state') }),
    })
  ).report.exitCode;

const readCsv = (path: string): string[][] =>
  parse(readFileSync(path, 'utf8'), { relax_column_count: true }) as string[][];

describe('issues.csv', () => {
  it('gives each record the line it starts on: preamble, header and multi-line cells counted', async () => {
    const pipeline = write(
      'preamble.yaml',
      'name: preamble\nsource:\n  skip_lines: 2\nname_parts:\n  full: full_name\nemails:\n  - column: email\n',
    );
    const input = write(
      'lines.csv',
      'Exported by CRM\nOn Monday\nfull_name,email,notes\n"Ann Lee",ann@,"line one\nline two\nline three"\n\nBob Ray,bob@example.com,ok\nCy Doe,cy@,x\n',
    );
    const out = join(dir, 'lines-out');
    const result = await runCli(['validate', pipeline, input, '--out', out], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const issues = readIssues(out).filter((issue) => issue.code === 'invalid_email');
    expect(Object.keys(issues[0]!).slice(0, 3)).toEqual(['file', 'row', 'line']);
    expect(issues.map((issue) => [issue.row, issue.line])).toEqual([
      ['1', '4'],
      ['3', '9'],
    ]);
  });

  it('gives a JSON element the line of its {, and an NDJSON record its line', async () => {
    const json = write(
      'people.json',
      '[\n  {\n    "full_name": "Ann Lee",\n    "email": "ann@"\n  },\n  {"full_name": "Bob Ray", "email": "bob@"}\n]\n',
    );
    const ndjson = write(
      'people.ndjson',
      '{"full_name":"Cy Doe","email":"cy@"}\n\n{"full_name":"Di Fox","email":"di@"}\n',
    );
    for (const [input, expected] of [
      [
        json,
        [
          ['1', '2'],
          ['2', '6'],
        ],
      ],
      [
        ndjson,
        [
          ['1', '1'],
          ['2', '3'],
        ],
      ],
    ] as const) {
      const out = join(dir, `${input.split('/').pop()}-out`);
      expect(await inProcess([input], out)).toBe(0);
      const issues = readIssues(out).filter((issue) => issue.code === 'invalid_email');
      expect(issues.map((issue) => [issue.row, issue.line])).toEqual(expected);
    }
  });

  it('is sorted by file, then row, whatever stage found the issue', async () => {
    const b = write(
      'b.csv',
      'full_name,email\nAnn Lee,ann@example.com\nBad Mail,bad@\nAnn Again,ANN@example.com\n',
    );
    const a = write('a.csv', 'full_name,email\nCy Doe,cy@\nAnn Lee,ann@example.com\n');
    const out = join(dir, 'sorted-out');
    expect(await inProcess([b, a], out)).toBe(0);
    const keys = readIssues(out).map((issue) => [issue.file, Number(issue.row), issue.code]);
    expect(keys).toEqual([
      [a, 1, 'invalid_email'],
      [a, 2, 'duplicate'],
      [b, 2, 'invalid_email'],
      [b, 3, 'duplicate'],
    ]);
  });
});

describe('rejected files', () => {
  it('carry import_row and import_error, keep phones as written, and run again once fixed', async () => {
    const input = write(
      'contacts.csv',
      'full_name,email,phone\nAnn Lee,ann@example.com,+1 212 555 0100\n' +
        ',not-an-email,\n' +
        'Bob Ray,bob@example.com,+1 212 555 0101\n' +
        '"Ragged, Row",ragged@example.com,+1 212 555 0102,extra\n',
    );
    const state = join(dir, 'state');
    const first = join(dir, 'first');
    expect(await inProcess([input], first, { stateDir: state })).toBe(1);
    expect(readReport(first).totals).toMatchObject({ read: 4, created: 2, rejected: 2 });
    const rejectedPath = join(first, 'rejected.csv');
    const rejected = readFileSync(rejectedPath, 'utf8');
    expect(rejected.split('\n')[0]).toBe('full_name,email,phone,import_row,import_error');
    expect(rejected).toContain('"Ragged, Row",ragged@example.com,+1 212 555 0102,extra,4,');
    const rows = readCsv(rejectedPath);
    expect(rows[1]!.slice(0, 4)).toEqual(['', 'not-an-email', '', '2']);
    expect(rows[1]![4]).toMatch(/no e-mail, phone, name or key/);
    expect(rows[2]![5]).toMatch(/Row 4 of .*contacts\.csv has 4 field\(s\); the header has 3/);

    // The user fixes both rows in place and runs the file as it is.
    const fixed = write(
      'fixed.csv',
      rejected
        .replace(',not-an-email,', 'Nia Noid,nia@example.com,')
        .replace('+1 212 555 0102,extra', '+1 212 555 0102'),
    );
    const second = join(dir, 'second');
    expect(await inProcess([fixed], second, { stateDir: state })).toBe(0);
    expect(readReport(second).totals).toMatchObject({ read: 2, created: 2, rejected: 0 });
    expect(readIssues(second)).toEqual([]);
  });

  it('JSON rejects gain the two keys and run again once fixed', async () => {
    const input = write(
      'contacts.json',
      JSON.stringify([{ full_name: 'Ann Lee', email: 'ann.json@example.com' }, { company: 'Nobody Inc' }]),
    );
    const state = join(dir, 'state-json');
    const first = join(dir, 'json-first');
    expect(await inProcess([input], first, { stateDir: state })).toBe(1);
    const rejected = JSON.parse(readFileSync(join(first, 'rejected.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    expect(rejected).toEqual([
      { company: 'Nobody Inc', import_row: 2, import_error: expect.stringMatching(/no e-mail/) },
    ]);
    rejected[0]!['email'] = 'nobody@example.com';
    const fixed = write('fixed.json', JSON.stringify(rejected));
    const second = join(dir, 'json-second');
    expect(await inProcess([fixed], second, { stateDir: state })).toBe(0);
    expect(readReport(second).totals).toMatchObject({ read: 1, created: 1 });
    expect(readIssues(second)).toEqual([]);
  });
});

describe('a rejected file loads back as it was read', () => {
  it(
    'the spreadsheet guard is taken off: =Chief, - met at conf and @ada arrive as they were',
    { timeout: 120_000 },
    async () => {
      const svc = await startService();
      try {
        const cwd = tempDir();
        const input = join(cwd, 'guarded.csv');
        writeFileSync(
          input,
          'full_name,email,company,job_title,description,worknet\n' +
            'Grace Hopper,grace@example.com,Navy,Rear Admiral,,\n' +
            ',,Analytical Engines,=Chief,- met at conf,@ada\n',
        );
        const state = { stateDir: join(cwd, '.contact-import'), svc };
        expect(await inProcess([input], join(cwd, 'out'), state)).toBe(1);
        const rejectedPath = join(cwd, 'out', 'rejected.csv');
        const written = readFileSync(rejectedPath, 'utf8');
        // Formula-safe on disk, as every CSV we write.
        expect(written).toContain("'=Chief");
        expect(written).toContain("'- met at conf");
        expect(written).toContain("'@ada");
        // Fixed with a text editor: the e-mail filled in, the guarded cells left as they are.
        writeFileSync(
          rejectedPath,
          written.replace(',,Analytical Engines,', ',ada@example.com,Analytical Engines,'),
        );
        expect(await inProcess([rejectedPath], join(cwd, 'out2'), state)).toBe(0);
        const stored = (await svc.client.local.contacts()).find((c) =>
          c.contact_emails?.some((e) => e.email === 'ada@example.com'),
        );
        expect(stored).toMatchObject({ job_title: '=Chief', description: '- met at conf', worknet: 'ada' });
        expect(readFileSync(join(cwd, 'out2', 'issues.csv'), 'utf8')).not.toMatch(/invalid_handle/);
      } finally {
        await svc.close();
      }
    },
  );
});
