import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LocalContact } from '../../src/core/schemas/index.js';
import type { RunReport } from '../../src/report/run-report.js';
import { runImport } from '../../src/run/run.js';
import {
  outcomes,
  readIssues,
  readRejected,
  readReport,
  runCli,
  startService,
  tempDir,
  TESTDATA,
  type TestService,
} from './harness.js';
import { runAsCli } from './cli-in-process.js';
import { EXPECTED, type ExpectedContact, type ExpectedFile } from './vcard-expected.js';

const SUITE = join(TESTDATA, 'vcard');

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const dirs: string[] = [];
const scratch = (): string => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A stored contact in the shape of the pinned expectations. */
const asExpected = (c: LocalContact, groupNames: Map<string, string>): ExpectedContact => {
  const out: ExpectedContact = {
    full: (c.full_name as string | null) ?? null,
    first: (c.first_name as string | null) ?? null,
    last: (c.last_name as string | null) ?? null,
    emails: c.contact_emails.map((e) => `${e.email} ${e.label}`),
    phones: c.contact_phone_numbers.map((p) => `${p.phone_number} ${p.label}`),
  };
  if (c.birthday) out.birthday = c.birthday as string;
  if (c.birthday_year) out.birthdayYear = c.birthday_year as number;
  if (c.groups_contacts.length > 0)
    out.groups = c.groups_contacts.map((g) => groupNames.get(g.group_id)!).sort();
  if (c.company) out.company = c.company as string;
  if (c.custom_fields.length > 0) out.custom = c.custom_fields.map((f) => `${f.name}=${f.text_value}`).sort();
  const addresses = c.legacy_contact_addresses as unknown[] | null | undefined;
  if (addresses && addresses.length > 0) out.addresses = addresses.length;
  return out;
};

const sorted = (contacts: ExpectedContact[]): ExpectedContact[] =>
  [...contacts].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const checkTotals = (report: RunReport, e: ExpectedFile): void => {
  expect(report.totals).toMatchObject({
    read: e.read,
    rejected: e.rejected,
    duplicates: 0,
    created: e.read - e.rejected,
    updated: 0,
    failed: 0,
  });
  expect(outcomes(report)).toBe(report.totals.read);
};

const checkInput = (input: RunReport['inputs'][number] | undefined, e: ExpectedFile): void => {
  expect(input).toMatchObject({ path: join(SUITE, e.file), format: 'vcard', rows: e.read });
  expect(input!.ignored?.PHOTO ?? 0).toBe(e.photos);
};

const sum = (pick: (e: ExpectedFile) => number): number => EXPECTED.reduce((total, e) => total + pick(e), 0);

describe('every file of the vCard test suite', () => {
  it('validate reads them all: per file its cards, issues, photos and rejected cards', async () => {
    const cwd = scratch();
    const paths = EXPECTED.map((e) => join(SUITE, e.file));
    const result = await runCli(['validate', 'vcard', ...paths, '--out', 'out'], { cwd });
    const out = join(cwd, 'out');
    // Exit 1: the Android file holds a card with bytes invalid in its charset.
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(`photos ignored: ${sum((e) => e.photos)} `);
    const report = readReport(out);
    expect(report.totals).toMatchObject({
      read: sum((e) => e.read),
      rejected: sum((e) => e.rejected),
      failed: 0,
    });
    expect(outcomes(report)).toBe(report.totals.read);
    const issues = readIssues(out);
    EXPECTED.forEach((e, i) => {
      checkInput(report.inputs[i], e);
      const own = issues.filter((issue) => issue.file === join(SUITE, e.file));
      const counts: Record<string, number> = {};
      // Files of one run share identities: the same John Doe in several files is a duplicate here.
      for (const issue of own.filter((issue) => issue.code !== 'duplicate'))
        counts[issue.code!] = (counts[issue.code!] ?? 0) + 1;
      expect(counts, e.file).toEqual(e.issues);
      for (const issue of own) expect(Number(issue.row)).toBeGreaterThanOrEqual(1);
      for (const issue of own) expect(Number(issue.row)).toBeLessThanOrEqual(e.read);
      const rejected = readRejected(join(out, `rejected.${i + 1}-${basename(e.file, '.vcf')}.vcf`));
      if (e.rejected === 0) expect(rejected).toBeUndefined();
      else expect(rejected?.match(/^BEGIN:VCARD\r$/gm)).toHaveLength(e.rejected);
    });
  });

  // Through the library in this process: the test is what each file becomes, and seventeen CLI
  // starts cost more than reading the files (the CLI reads them all in the test above and below).
  it.each(EXPECTED)('run $file and read the contacts back', async (e) => {
    svc = await startService();
    const cwd = scratch();
    const result = await runImport({
      pipeline: 'vcard',
      inputs: [join(SUITE, e.file)],
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(cwd, 'state'),
      outDir: join(cwd, 'out'),
      maxRejects: '1',
    });
    // The exit code the command line ends with.
    expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
    const report = readReport(join(cwd, 'out'));
    checkTotals(report, e);
    checkInput(report.inputs[0], e);
    const groups = new Map((await svc.client.local.groups()).map((g) => [g.id, g.name]));
    const contacts = (await svc.client.local.contacts()).map((c) => asExpected(c, groups));
    expect(sorted(contacts)).toEqual(sorted(e.contacts));
  });
});

describe('vCard details read back', () => {
  it('a rejected card goes to rejected.vcf as written, and issues.csv names its card', async () => {
    const cwd = scratch();
    const file = join(SUITE, 'John_Doe_ANDROID.vcf');
    // `validate vcard <file> --out out` in this process: what is checked is the files it writes.
    await runAsCli({ cwd, pipeline: 'vcard', inputs: [file], out: 'out', dryRun: true });
    const lines = readFileSync(file, 'utf8').split('\r\n');
    const sixth = `${lines.slice(70, lines.lastIndexOf('END:VCARD') + 1).join('\r\n')}\r\n`;
    expect(
      sixth.startsWith(
        'BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91=C3=91',
      ),
    ).toBe(true);
    expect(readRejected(join(cwd, 'out', 'rejected.vcf'))).toBe(sixth);
    const error = readIssues(join(cwd, 'out')).find((i) => i.severity === 'error');
    expect(error).toMatchObject({ row: '6', stage: 'read', code: 'invalid_encoding' });
    expect(error!.message).toContain('Card 6 (line 71)');
    expect(error!.message).toContain('line 82 (ORG)');
  });

  it('stores addresses, description, website and the year-less birthday as the service fields', async () => {
    svc = await startService();
    const cwd = scratch();
    const files = ['rfc6350-example.vcf', 'John_Doe_GMAIL.vcf'].map((f) => join(SUITE, f));
    const { report } = await runAsCli({ cwd, svc, pipeline: 'vcard', inputs: files, out: 'out' });
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    const contacts = await svc.client.local.contacts();
    const simon = contacts.find((c) => c.full_name === 'Simon Perreault')!;
    expect(simon).toMatchObject({
      birthday: '1604-02-03',
      birthday_year: null,
      website: 'http://nomis80.org',
      legacy_contact_addresses: [{ formatted: 'Suite D2-630, 2875 Laurier, Quebec, QC G1V 2M2, Canada' }],
      source: 'csv_import',
    });
    const john = contacts.find((c) => c.last_name === 'Doe')!;
    expect(john.legacy_contact_addresses).toEqual([
      {
        formatted:
          'Crescent moon drive, 555-asd, Nice Area, Albaney, New York 12345, United States of America',
      },
    ]);
    expect(john.description).toMatch(
      /^THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND/,
    );
    expect(john.description).toMatch(/SUCH DAMAGE\. Favotire Color: Blue$/);
  });
});
