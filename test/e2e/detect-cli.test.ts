import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitPipelineArgument } from '../../src/cli/commands/pipeline-argument.js';
import { readReport, runCli, SAMPLES, tempDir } from './harness.js';
import { runAsCli, stopOf } from './cli-in-process.js';

/** DESIGN.md "Pipeline argument": the pipeline positional is optional; detection says what it chose. */
const dirs: string[] = [];
const fresh = (): string => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('run and validate without a pipeline', () => {
  it('validate <input> detects the built-in and names the matched columns', async () => {
    const cwd = fresh();
    const result = await runCli(['validate', join(SAMPLES, 'mail-client.csv'), '--out', 'out'], { cwd });
    expect(result.stdout).toMatch(
      /^Detected pipeline mail-client-csv: the header of .*mail-client\.csv has its columns Title, First Name/m,
    );
    expect(readReport(join(cwd, 'out')).pipeline).toBe('mail-client-csv');
    expect(result.code).toBe(readReport(join(cwd, 'out')).exitCode);
  });

  it('run --dry-run on a vCard file picks vcard; --json keeps stdout one JSON document', async () => {
    const cwd = fresh();
    const vcf = join(cwd, 'one.vcf');
    writeFileSync(
      vcf,
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nEMAIL:ann@example.com\r\nEND:VCARD\r\n',
    );
    const result = await runCli(['run', '--dry-run', '--json', vcf, '--out', 'out'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Detected pipeline vcard: ');
    expect(JSON.parse(result.stdout).pipeline).toBe('vcard');
  });

  it('refuses with exit 2 naming the candidates when two fit alike, and reads nothing', async () => {
    const cwd = fresh();
    const csv = join(cwd, 'tie.csv');
    writeFileSync(csv, 'E-mail Address,Mobile Phone,full_name,email_label\na@example.com,1,Bo Li,work\n');
    const result = await runCli(['validate', csv, '--out', 'out'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /pipeline_undetected: .*generic \(2 columns: full_name, email_label\).*mail-client-csv \(2 columns/,
    );
    expect(result.stdout).toBe('');
  });

  it('--pipeline forces one; a built-in name or .yaml path first is the pipeline', async () => {
    const cwd = fresh();
    const sample = join(SAMPLES, 'address-book.csv');
    const forced = await runCli(
      ['validate', '--pipeline', 'generic', join(SAMPLES, 'generic.csv'), '--out', 'a'],
      {
        cwd,
      },
    );
    expect(forced.stdout).not.toContain('Detected pipeline');
    expect(readReport(join(cwd, 'a')).pipeline).toBe('generic');
    // A built-in that would leave the export's e-mail columns unused is no choice: the fitting one is named.
    const wrong = await runCli(['validate', '--pipeline', 'generic', sample, '--out', 'w'], { cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /pipeline_mismatch: pipeline generic would leave the columns .*E-mail 1 - Value \(e-mail\)/,
    );
    expect(wrong.stderr).toContain('the built-in address-book-csv reads it');
    // A built-in name or a .yaml path first is taken as the pipeline, named as --pipeline names it
    // (the runs above show what the command does with a named one): the split the command makes,
    // and the run it hands the library, in this process.
    expect(await splitPipelineArgument(['address-book-csv', sample], undefined)).toEqual({
      pipeline: 'address-book-csv',
      inputs: [sample],
    });
    const named = await runAsCli({
      cwd,
      pipeline: 'address-book-csv',
      inputs: [sample],
      out: 'b',
      dryRun: true,
    });
    expect(named.report.pipeline).toBe('address-book-csv');
    expect(readReport(join(cwd, 'b')).pipeline).toBe('address-book-csv');
    expect(await splitPipelineArgument(['mine.yaml', sample], undefined)).toEqual({
      pipeline: 'mine.yaml',
      inputs: [sample],
    });
    const missingYaml = await stopOf(
      runAsCli({ cwd, pipeline: 'mine.yaml', inputs: [sample], out: 'm', dryRun: true }),
    );
    expect(missingYaml?.code).toBe('pipeline_not_found');
  });

  it('a pipeline without inputs is a usage error', async () => {
    // What the command prints as its one line with exit 2 (as test/e2e/usage-errors.test.ts checks).
    await expect(splitPipelineArgument(['generic'], undefined)).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/no input after the pipeline generic/),
    });
  });
});
