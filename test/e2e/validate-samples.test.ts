import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { outcomes, readIssues, readRejected, readReport, runCli, SAMPLES, tempDir } from './harness.js';

/** samples/README.md "Expected outcomes": what each sample holds, decided when it was written. */
const EXPECTED = [
  {
    file: 'generic.csv',
    pipeline: 'generic',
    rows: 12,
    rejected: 1,
    duplicates: 1,
    warnings: 3,
    groups: 5,
    fields: 1,
    reminders: 1,
  },
  {
    file: 'generic.json',
    pipeline: 'generic',
    rows: 8,
    rejected: 1,
    duplicates: 1,
    warnings: 2,
    groups: 3,
    fields: 1,
    reminders: 1,
  },
  {
    file: 'address-book.csv',
    pipeline: 'address-book-csv',
    rows: 10,
    rejected: 1,
    duplicates: 1,
    warnings: 2,
    groups: 4,
    fields: 0,
    reminders: 0,
  },
  {
    file: 'address-book-legacy.csv',
    pipeline: 'address-book-csv',
    rows: 8,
    rejected: 0,
    duplicates: 1,
    warnings: 2,
    groups: 4,
    fields: 0,
    reminders: 0,
  },
  {
    file: 'mail-client.csv',
    pipeline: 'mail-client-csv',
    rows: 10,
    rejected: 1,
    duplicates: 1,
    warnings: 3,
    groups: 6,
    fields: 0,
    reminders: 0,
  },
  {
    file: 'worknet-connections.csv',
    pipeline: 'worknet-connections',
    rows: 10,
    rejected: 1,
    duplicates: 1,
    warnings: 1,
    groups: 0,
    fields: 1,
    reminders: 0,
  },
  {
    file: 'marketing-crm.csv',
    pipeline: 'marketing-crm-csv',
    rows: 8,
    rejected: 1,
    duplicates: 1,
    warnings: 2,
    groups: 0,
    fields: 3,
    reminders: 0,
  },
  {
    file: 'sales-crm-report.csv',
    pipeline: 'sales-crm-csv',
    rows: 6,
    rejected: 1,
    duplicates: 1,
    warnings: 2,
    groups: 0,
    fields: 2,
    reminders: 0,
  },
  {
    file: 'sales-crm-dataloader.csv',
    pipeline: 'sales-crm-csv',
    rows: 6,
    rejected: 1,
    duplicates: 1,
    warnings: 3,
    groups: 0,
    fields: 3,
    reminders: 0,
  },
  {
    file: 'plain-list-eu.csv',
    pipeline: 'plain-list',
    rows: 9,
    rejected: 1,
    duplicates: 1,
    warnings: 1,
    groups: 0,
    fields: 0,
    reminders: 0,
  },
  {
    file: 'icloud.vcf',
    pipeline: 'vcard',
    rows: 6,
    rejected: 1,
    duplicates: 1,
    warnings: 2,
    groups: 3,
    fields: 2,
    reminders: 0,
  },
  {
    file: 'people.xlsx',
    pipeline: 'generic',
    rows: 5,
    rejected: 0,
    duplicates: 0,
    warnings: 0,
    groups: 0,
    fields: 0,
    reminders: 0,
  },
];

/**
 * What `validate <pipeline> <file> --out out` runs in `cwd`: a dry run of the library with no
 * target, the flags' defaults being the library's (src/cli/commands/execute-run.ts passes only the
 * flags given). In the test's own process: the command line itself is run once, below.
 */
const validateInProcess = (e: (typeof EXPECTED)[number], cwd: string) =>
  runImport({
    pipeline: e.pipeline,
    inputs: [join(SAMPLES, e.file)],
    dryRun: true,
    stateDir: join(cwd, '.contact-import'),
    outDir: join(cwd, 'out'),
  });

/**
 * Every sample through the library in this process, as `validate <pipeline> <sample>` hands it
 * over. The command line's own part is spawned where it is what is checked: `validate generic
 * samples/generic.csv --out out` (its exit 1, summary and report) and `--json` in
 * summary-next-step.test.ts, a percentage for --max-rejects in usage-errors.test.ts, and
 * `pipelines` below.
 */
describe('contact-import validate on every sample', () => {
  it.each(EXPECTED)('$file with $pipeline', async (e) => {
    const cwd = tempDir();
    await validateInProcess(e, cwd);
    const out = join(cwd, 'out');
    const report = readReport(out);
    expect(report).toMatchObject({ dryRun: true, status: 'completed', pipeline: e.pipeline });
    expect(report.totals).toMatchObject({
      read: e.rows,
      rejected: e.rejected,
      duplicates: e.duplicates,
      warnings: e.warnings,
      created: e.rows - e.rejected - e.duplicates,
      updated: 0,
      failed: 0,
    });
    expect(outcomes(report)).toBe(report.totals.read);
    expect(report.inputs).toHaveLength(1);
    expect(report.inputs[0]!.rows).toBe(e.rows);
    expect(report.groups.created).toBe(e.groups);
    expect(report.customFields.created).toBe(e.fields);
    expect(report.reminders.created).toBe(e.reminders);
    expect(report.requests.sent).toBe(0);

    // Exit 1: the samples hold a rejected record on purpose and --max-rejects defaults to 0.
    expect(report.exitCode).toBe(e.rejected > 0 ? 1 : 0);

    const issues = readIssues(out);
    const errors = issues.filter((i) => i.severity === 'error');
    expect(errors).toHaveLength(e.rejected);
    expect(issues.filter((i) => i.code === 'duplicate')).toHaveLength(e.duplicates);
    expect(issues.filter((i) => i.severity === 'warning' && i.code !== 'duplicate')).toHaveLength(e.warnings);
    for (const issue of issues) {
      expect(issue.file).toContain(e.file);
      expect(Number(issue.row)).toBeGreaterThanOrEqual(1);
      expect(Number(issue.row)).toBeLessThanOrEqual(e.rows);
      expect(issue.code).toMatch(/^[a-z_]+$/);
      expect(issue.message?.length).toBeGreaterThan(10);
    }
    // The rejected file holds the header and exactly the rejected rows, ready to fix and run again.
    const ext = e.file.split('.').pop();
    const rejected = readRejected(join(out, `rejected.${ext}`));
    if (e.rejected === 0) expect(rejected).toBeUndefined();
    else if (ext === 'json') expect(JSON.parse(rejected!)).toHaveLength(e.rejected);
    else expect(rejected).toBeDefined();
  });

  it('--strict turns the warnings into rejections', async () => {
    const cwd = tempDir();
    const result = await runImport({
      pipeline: 'generic',
      inputs: [join(SAMPLES, 'generic.csv')],
      dryRun: true,
      strict: true,
      stateDir: join(cwd, '.contact-import'),
      outDir: join(cwd, 'out'),
    });
    expect(result.report.exitCode).toBe(1);
    const report = readReport(join(cwd, 'out'));
    expect(report.totals.rejected).toBe(1 + 3);
    expect(report.totals.warnings).toBe(0);
    expect(outcomes(report)).toBe(report.totals.read);
  });

  it('--max-rejects lets a run with rejects exit 0 within the threshold, as a count or a percentage', async () => {
    const file = join(SAMPLES, 'generic.csv');
    // The flag on the command line, a count and a percentage: summary-next-step.test.ts and
    // usage-errors.test.ts; each threshold is the library's to apply.
    const exitWithin = async (maxRejects: string) => {
      const cwd = tempDir();
      const { report } = await runImport({
        pipeline: 'generic',
        inputs: [file],
        dryRun: true,
        maxRejects,
        stateDir: join(cwd, '.contact-import'),
        outDir: join(cwd, 'out'),
      });
      return report.exitCode;
    };
    expect(await exitWithin('10%')).toBe(0);
    expect(await exitWithin('1')).toBe(0);
    expect(await exitWithin('5%')).toBe(1);
  });

  it('lists the built-in pipelines', async () => {
    const result = await runCli(['pipelines']);
    expect(result.code).toBe(0);
    for (const name of ['generic', 'address-book-csv', 'mail-client-csv', 'vcard', 'worknet-connections'])
      expect(result.stdout).toContain(name);
  });
});
