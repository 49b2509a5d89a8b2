import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTypedNumbers } from '../../src/cli/flag-values.js';
import { runImport } from '../../src/run/run.js';
import { SAMPLES, outcomes, readIssues, readReport, runCli, tempDir } from './harness.js';
import { refusalOf, runAsCli } from './cli-in-process.js';

/** `validate generic <name> --out out` on the command line, in a folder holding the file. */
const validate = async (name: string, content: string | Buffer) => {
  const cwd = tempDir();
  writeFileSync(join(cwd, name), content);
  const result = await runCli(['validate', 'generic', name, '--out', 'out'], { cwd });
  const out = join(cwd, 'out');
  return { result, report: readReport(out), issues: readIssues(out) };
};

/**
 * What `validate generic <file> --out out` runs, in the test's own process, for what the reader
 * makes of a file (the exit code is the report's): the command line's own part, one line and
 * exit 2 when it cannot read it, is checked with `validate` above once; the other files it cannot
 * read are checked by the error that line prints (refusalOf).
 */
const validateInProcess = async (name: string, content: string | Buffer) => {
  const cwd = tempDir();
  const file = join(cwd, name);
  writeFileSync(file, content);
  const out = join(cwd, 'out');
  const { report } = await runImport({
    pipeline: 'generic',
    inputs: [file],
    dryRun: true,
    stateDir: join(cwd, '.contact-import'),
    outDir: out,
  });
  return { file, report, issues: readIssues(out) };
};

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('contact-import validate on hostile input', () => {
  it('an empty file stops with exit 2 and one line naming the file', async () => {
    const { result, report } = await validate('empty.csv', '');
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/^contact-import: input_unreadable: empty\.csv is empty/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(report).toMatchObject({ status: 'aborted', exitCode: 2, error: { code: 'input_unreadable' } });
  });

  it('a header without rows completes with nothing read', async () => {
    const { report, issues } = await validateInProcess('header-only.csv', 'full_name,email\r\n');
    expect(report.exitCode).toBe(0);
    expect(report.totals.read).toBe(0);
    expect(report.inputs[0]).toMatchObject({ format: 'csv', delimiter: ',', rows: 0 });
    expect(issues).toEqual([]);
  });

  it('binary garbage stops with exit 2 naming the file and where', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919 + 13) % 256;
    const { report } = await validateInProcess('garbage.csv', bytes);
    expect(report.exitCode).toBe(2);
    const line = `${report.error?.code}: ${report.error?.message}`;
    expect(line).toMatch(/^input_unreadable: \S*garbage\.csv .*(byte|line) \d+/);
    noStackTrace(line);
    expect(report.status).toBe('aborted');
  });

  it('a Windows-1252 row in the middle of a UTF-8 file is read as that, with a warning naming it', async () => {
    const lines = [
      'full_name,email',
      ...Array.from({ length: 3000 }, (_, i) => `Zoë Müller ${i},zoe${i}@example.com`),
    ];
    const bytes = Buffer.concat([
      Buffer.from(`${lines.join('\n')}\n`, 'utf8'),
      Buffer.from('Jos\xe9 Bad,jose@example.com\nAnn Good,ann@example.com\n', 'latin1'),
    ]);
    const { file, report, issues } = await validateInProcess('mid.csv', bytes);
    expect(report.exitCode).toBe(0);
    expect(report.inputs[0]!.encoding).toBe('utf-8');
    expect(report.totals).toMatchObject({ read: 3002, rejected: 0, created: 3002 });
    expect(issues).toMatchObject([
      { file, row: '3001', severity: 'warning', stage: 'read', code: 'mixed_encoding' },
    ]);
  });

  it('a row of invalid UTF-8 that is no Windows-1252 text either rejects that row only, naming it', async () => {
    const bytes = Buffer.concat([
      Buffer.from('full_name,email\nZoë Müller,zoe@example.com\nJosé Bad', 'utf8'),
      Buffer.from([0x81]),
      Buffer.from(',jose@example.com\nAnn Good,ann@example.com\n'),
    ]);
    const { file, report, issues } = await validateInProcess('broken.csv', bytes);
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ read: 3, rejected: 1, created: 2 });
    expect(issues).toMatchObject([
      { file, row: '2', severity: 'error', stage: 'read', code: 'invalid_encoding' },
    ]);
  });

  it('a quoted field left open at the end of the file rejects that last row only', async () => {
    const { file, report, issues } = await validateInProcess(
      'truncated.csv',
      'full_name,email,description\nAnn,ann@example.com,fine\nBob,bob@example.com,"never closed\n',
    );
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ read: 2, rejected: 1, created: 1 });
    expect(issues).toMatchObject([{ file, row: '2', code: 'row_unparseable', severity: 'error' }]);
  });

  // A cell just under the request-size bound is the reader's concern: read whole and loaded.
  // A larger one cannot fit any request: record_too_large (test/e2e/request-size.test.ts).
  it('a 4 MB single cell is read and loaded', async () => {
    const { report } = await validateInProcess(
      'bigcell.csv',
      `full_name,email,description\nAnn,ann@example.com,${'x'.repeat(4_000_000)}\nBob,bob@example.com,short\n`,
    );
    expect(report.exitCode).toBe(0);
    expect(report.totals).toMatchObject({ read: 2, created: 2 });
  });

  it('JSON that is not an array stops with exit 2 saying what it got', async () => {
    const { report } = await validateInProcess('object.json', JSON.stringify({ full_name: 'Ann' }));
    expect(report.exitCode).toBe(2);
    expect(report.error?.message).toMatch(/object\.json .*object.*expected a JSON array/);
  });

  it('an NDJSON file with one bad line rejects that line and reads the rest', async () => {
    const { file, report, issues } = await validateInProcess(
      'people.ndjson',
      [
        '{"full_name":"Ann","contact_emails":[{"email":"ann@example.com"}]}',
        '{"full_name": "Bob", oops}',
        '{"full_name":"Cy","contact_emails":[{"email":"cy@example.com"}]}',
        '',
      ].join('\n'),
    );
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ read: 3, rejected: 1, created: 2 });
    expect(outcomes(report)).toBe(3);
    expect(issues).toMatchObject([{ file, row: '2', code: 'row_unparseable', stage: 'read' }]);
  });

  it('a ragged row is rejected with its row number, and the rest loads', async () => {
    const { report, issues } = await validateInProcess(
      'ragged.csv',
      'full_name,email\nAnn,ann@example.com\nBob,bob@example.com,extra,cells\nCy,cy@example.com\n',
    );
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ read: 3, rejected: 1, created: 2 });
    expect(issues).toMatchObject([{ row: '2', code: 'row_ragged' }]);
  });

  // A missing input (`validate generic nope.csv`: exit 2, one line, input_not_found naming it)
  // is test/e2e/usage-errors.test.ts's first test.

  // Each stops the command with its one line and exit 2 (printed as usage-errors.test.ts checks):
  // here, the error that line prints.
  it('an unknown pipeline and a bad option stop with exit 2', async () => {
    const cwd = tempDir();
    const sample = join(SAMPLES, 'address-book.csv');
    const validateWith = (pipeline: string, region?: string) =>
      refusalOf(
        runAsCli({
          cwd,
          pipeline,
          inputs: [sample],
          out: 'out',
          dryRun: true,
          ...(region ? { region } : {}),
        }),
      );
    expect(await validateWith('no-such-pipeline')).toMatchObject({ code: 'pipeline_not_found' });
    expect(() => checkTypedNumbers({ chunkSize: '0' })).toThrow(
      expect.objectContaining({
        code: 'config_invalid',
        message: '--chunk-size must be a whole number from 1 to 500, got "0"',
      }),
    );
    expect(await validateWith('address-book-csv', 'XX')).toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/^option region: not a region/),
    });
  });
});

describe('contact-import validate reading standard input', () => {
  it('reads `-` as stdin and names it <stdin> in the report and issues', async () => {
    const cwd = tempDir();
    const csv = 'full_name,email\nAnn Lee,ann@example.com\nBob,bob@@example.com\n,\n';
    const result = await runCli(['validate', 'generic', '-', '--out', 'out'], { cwd, stdin: csv });
    expect(result.code).toBe(1);
    const report = readReport(join(cwd, 'out'));
    expect(report.inputs).toMatchObject([{ path: '<stdin>', format: 'csv', rows: 3 }]);
    expect(report.totals).toMatchObject({ read: 3, created: 2, rejected: 1, warnings: 1 });
    expect(readIssues(join(cwd, 'out')).map((i) => [i.file, i.row, i.code])).toEqual([
      ['<stdin>', '2', 'invalid_email'],
      ['<stdin>', '3', 'no_identity'],
    ]);
  });
});
