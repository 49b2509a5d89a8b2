import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalContact } from '../../src/core/schemas/local.js';
import type { RunReport } from '../../src/report/run-report.js';
import { formatSummary } from '../../src/report/summary.js';
import { choosePipelines } from '../../src/run/detect-pipeline.js';
import { runImport } from '../../src/run/run.js';
import { outcomes, readReport, runCli, SAMPLES, startService, tempDir, type TestService } from './harness.js';

/**
 * Each export a user holds, run WITHOUT naming the pipeline (detection picks it), into
 * a local service, and the stored contacts read back: names, e-mails, phones, labels, birthdays,
 * groups and custom fields. samples/README.md "Expected outcomes" lists the same numbers.
 */

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

/** What the run stored, read back from the service, once its report is checked. */
const readBack = async (report: RunReport) => {
  expect(outcomes(report)).toBe(report.totals.read);
  expect(report.totals.failed).toBe(0);
  const contacts = await svc!.client.local.contacts();
  expect(contacts).toHaveLength(report.totals.created);
  const groups = (await svc!.client.local.groups()).map((g) => g.name).sort();
  const fields = (await svc!.client.local.customFields()).map((f) => f.name).sort();
  return { report, contacts, groups, fields };
};

/** `run <input> --max-rejects 25%` (no pipeline) into a fresh local service, on the command line. */
const runDetectedCli = async (input: string) => {
  svc = await startService();
  const cwd = tempDir();
  const result = await runCli(
    ['run', input, '--target', svc.service.url, '--out', 'out', '--max-rejects', '25%'],
    {
      cwd,
      env: { CONTACT_IMPORT_API_KEY: svc.key },
    },
  );
  expect(result.code, result.stderr).toBe(0);
  return { result, ...(await readBack(readReport(join(cwd, 'out')))) };
};

/**
 * What `run <input> --max-rejects 25% [--region R]` (no pipeline) does, in this process: the
 * pipeline detected as the command line detects it, the run, and as `result.stdout` the lines the
 * command line prints of it (the detection line, the summary). The command line itself runs for
 * marketing-crm.csv, below.
 */
const runDetected = async (input: string, settings: { region?: string } = {}) => {
  svc = await startService();
  const cwd = tempDir();
  const [detection] = await choosePipelines([input], undefined);
  const run = await runImport({
    pipeline: detection!.pipeline,
    inputs: [input],
    target: { url: svc.service.url, apiKey: svc.key },
    stateDir: join(cwd, '.contact-import'),
    outDir: join(cwd, 'out'),
    maxRejects: '25%',
    ...settings,
  });
  expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
  const summary = formatSummary(run.report, { topIssues: run.topIssues, files: [] });
  const result = { stdout: `Detected pipeline ${detection!.reason}\n${summary}\n` };
  return { result, ...(await readBack(readReport(join(cwd, 'out')))) };
};

/** One stored contact, by name, in a comparable shape. */
const person = (contacts: LocalContact[], fullName: string) => {
  const found = contacts.filter((c) => c['full_name'] === fullName);
  expect(found, `${fullName} in ${contacts.map((c) => c['full_name']).join(', ')}`).toHaveLength(1);
  const c = found[0]!;
  return {
    first: c['first_name'],
    last: c['last_name'],
    emails: c.contact_emails.map((e) => `${e.email} ${e.label}`),
    phones: c.contact_phone_numbers.map((p) => `${p.phone_number_sanitized} ${p.label}`),
    birthday: c['birthday'] ?? null,
    year: c['birthday_year'] ?? null,
    company: c['company'] ?? null,
    job: c['job_title'] ?? null,
    groups: c.groups_contacts.map((g) => g.name).sort(),
    fields: Object.fromEntries(c.custom_fields.map((f) => [f.name, f.text_value])),
  };
};

describe('export samples run without a pipeline name, stored contacts read back', () => {
  it('marketing-crm.csv (HubSpot contacts export) -> marketing-crm-csv', async () => {
    const { result, report, contacts, groups, fields } = await runDetectedCli(
      join(SAMPLES, 'marketing-crm.csv'),
    );
    expect(result.stdout).toMatch(/^Detected pipeline marketing-crm-csv: .*Record ID, First Name/m);
    expect(report.pipeline).toBe('marketing-crm-csv');
    expect(report.totals).toMatchObject({ read: 8, created: 6, duplicates: 1, rejected: 1 });
    expect(groups).toEqual([]);
    expect(fields).toEqual(['Lead Status', 'Lifecycle Stage', 'Record ID']);
    expect(person(contacts, 'Priya Raman')).toEqual({
      first: 'Priya',
      last: 'Raman',
      // The duplicate row 3 (Priya.Raman@Example.com) merged; Additional email addresses split on ;.
      emails: ['priya.raman@example.com work', 'priya@example.org other', 'p.raman@example.net other'],
      phones: ['+16175550123 work', '+14155552671 mobile'],
      birthday: '1986-02-14',
      year: 1986,
      company: 'Northwind, Inc.',
      job: 'VP Marketing',
      groups: [],
      fields: { 'Record ID': '51234001', 'Lifecycle Stage': 'Customer' },
    });
    expect(person(contacts, 'Tom Becker')).toMatchObject({
      emails: ['tom.becker@example.de work'],
      phones: ['+49891234567 work'],
      fields: { 'Record ID': '51234002', 'Lifecycle Stage': 'Lead', 'Lead Status': 'New' },
    });
    // An invalid e-mail leaves the phone as identity; an invalid phone leaves the e-mail.
    expect(person(contacts, 'Chloé Martin')).toMatchObject({ emails: [], phones: ['+33142685300 work'] });
    expect(person(contacts, 'Kenji Sato')).toMatchObject({ phones: [], year: 1979 });
    expect(person(contacts, 'Ahmed Hassan')).toMatchObject({ emails: [], phones: ['+201012345678 mobile'] });
  });

  // The two Salesforce layouts: one built-in (sales-crm-csv) detected for both, each run read back.
  const salesforce = (result: { stdout: string }, report: RunReport, columns: RegExp) => {
    expect(result.stdout).toMatch(new RegExp(`^Detected pipeline sales-crm-csv: .*${columns.source}`, 'm'));
    expect(report.pipeline).toBe('sales-crm-csv');
    expect(report.totals).toMatchObject({ read: 6, created: 4, duplicates: 1, rejected: 1 });
  };

  it('sales-crm-report.csv -> sales-crm-csv: labels, M/D/YYYY birthdays, salutation, account name, contact id', async () => {
    const { result, report, contacts, fields } = await runDetected(join(SAMPLES, 'sales-crm-report.csv'));
    salesforce(result, report, /Salutation, First Name, Last Name, Title, Account Name/);
    expect(fields).toEqual(['Contact ID', 'Lead Source']);
    expect(person(contacts, 'Mr. Luis Ortega')).toEqual({
      first: 'Luis',
      last: 'Ortega',
      emails: ['luis.ortega@example.es work'],
      phones: ['+34912345678 work', '+34612345678 mobile'],
      birthday: '1985-03-14',
      year: 1985,
      company: 'Ortega Foods, S.L.',
      job: 'CFO',
      groups: [],
      fields: { 'Contact ID': '0035g00000AbCdEAAV', 'Lead Source': 'Web' },
    });
    expect(person(contacts, 'Ms. Hannah Schmidt')).toMatchObject({
      phones: ['+4930901820 work', '+4930901821 fax'],
      company: 'Schmidt & Partner GmbH',
    });
    // 2/30/1990 does not exist: loaded without a birthday.
    expect(person(contacts, 'Dr. Amara Okafor')).toMatchObject({
      birthday: null,
      phones: ['+442079460000 work'],
    });
    expect(person(contacts, 'Wei Zhang')).toMatchObject({ emails: [], phones: ['+12128675309 work'] });
  });

  it('sales-crm-dataloader.csv -> sales-crm-csv: upper-case API names mapped, ISO birthdays', async () => {
    const { result, report, contacts, fields } = await runDetected(join(SAMPLES, 'sales-crm-dataloader.csv'));
    salesforce(result, report, /ID, SALUTATION, FIRSTNAME, LASTNAME, TITLE/);
    expect(fields).toEqual(['Contact ID', 'Department', 'Lead Source']);
    expect(person(contacts, "Mr. James O'Neil")).toEqual({
      first: 'James',
      last: "O'Neil",
      emails: ['james.oneil@example.com work'],
      phones: ['+16172531000 work', '+16175550123 home'],
      birthday: '1990-07-21',
      year: 1990,
      company: null,
      job: 'CTO',
      groups: [],
      fields: { 'Contact ID': '0035g00000XyZ04AAB', Department: 'Engineering', 'Lead Source': 'Event' },
    });
    expect(person(contacts, 'Ms. Ingrid Larsen')).toMatchObject({
      phones: ['+4722123456 work', '+4791234567 mobile'],
      birthday: '1979-11-02',
    });
    expect(person(contacts, 'Marco Rossi')).toMatchObject({ phones: ['+393123456789 mobile'] });
    expect(person(contacts, 'Sofia Lindqvist')).toMatchObject({ emails: [], phones: [], birthday: null });
  });

  it('plain-list-eu.csv (Excel in Europe: semicolons, Windows-1252) -> plain-list', async () => {
    const { result, report, contacts } = await runDetected(join(SAMPLES, 'plain-list-eu.csv'));
    expect(result.stdout).toMatch(/^Detected pipeline plain-list: .* has its columns Name, Email, Phone$/m);
    expect(report.inputs[0]).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
    expect(report.totals).toMatchObject({ read: 9, created: 7, duplicates: 1, rejected: 1 });
    expect(person(contacts, 'Jürgen Müller')).toMatchObject({
      first: 'Jürgen',
      last: 'Müller',
      emails: ['juergen.mueller@example.de other'],
      phones: ['+49301234567 other'],
    });
    // "Weiß, Thomas": last name first, split at the comma.
    expect(person(contacts, 'Thomas Weiß')).toMatchObject({ first: 'Thomas', last: 'Weiß' });
    expect(person(contacts, 'Søren Ødegård')).toMatchObject({ emails: [], phones: ['+4532123456 other'] });
    // A national number and no region: left out with a warning (--region BE reads it, below).
    expect(person(contacts, 'Renée Dubois')).toMatchObject({ phones: [] });
  });

  it('plain-list-eu.csv with --region BE reads the national number', async () => {
    const { contacts } = await runDetected(join(SAMPLES, 'plain-list-eu.csv'), { region: 'BE' });
    expect(person(contacts, 'Renée Dubois')).toMatchObject({ phones: ['+32470123456 other'] });
  });

  it('icloud.vcf (Apple vCard 3.0: item1.X-ABLabel, TYPE params, PHOTO, BDAY) -> vcard', async () => {
    const { result, report, contacts, groups, fields } = await runDetected(join(SAMPLES, 'icloud.vcf'));
    expect(result.stdout).toMatch(/^Detected pipeline vcard: .*icloud\.vcf is a vCard file/m);
    expect(result.stdout).toContain('photos ignored: 1');
    expect(report.totals).toMatchObject({ read: 6, created: 4, duplicates: 1, rejected: 1 });
    expect(groups).toEqual(['Family', 'Friends', 'Orchard Club']);
    expect(fields).toEqual(['Department', 'Nickname']);
    expect(person(contacts, 'Mr. Johnny Q. Appleseed Jr.')).toEqual({
      first: 'Johnny',
      last: 'Appleseed',
      // item1.EMAIL with _$!<Other>!$_; the duplicate card (JOHNNY@Example.com) brought Family.
      emails: ['johnny@example.com work', 'jo.appleseed@example.org other'],
      // TYPE=CELL, TYPE=WORK, and item2's custom label "Studio".
      phones: ['+14089961010 mobile', '+14155552671 work', '+16502530000 other'],
      birthday: '1985-04-12',
      year: 1985,
      company: 'Example Orchards, Inc.',
      job: 'Chief Grower',
      groups: ['Family', 'Friends', 'Orchard Club'],
      fields: { Department: 'Research', Nickname: 'Jo' },
    });
    const johnny = contacts.find((c) => c['first_name'] === 'Johnny')!;
    expect(johnny['website']).toBe('https://orchards.example.com');
    expect(johnny['legacy_contact_addresses']).toEqual([
      { formatted: '1 Infinite Loop, Cupertino, CA 95014, United States' },
    ]);
    // Apple's year-less birthday (X-APPLE-OMIT-YEAR=1604) stays year-less.
    expect(person(contacts, 'Élise Rivière')).toMatchObject({
      emails: ['elise.riviere@example.fr home'],
      phones: ['+33142685300 home'],
      birthday: '1604-03-15',
      year: null,
    });
    expect(person(contacts, 'Yui Tanaka')).toMatchObject({
      phones: ['+819012345678 mobile', '+81312345678 fax'],
      birthday: '1992-11-03',
    });
  });

  it('people.xlsx (a LibreOffice workbook) -> generic, dates and numeric phones as the sheet shows', async () => {
    const { result, report, contacts } = await runDetected(join(SAMPLES, 'people.xlsx'));
    expect(result.stdout).toMatch(/^Detected pipeline generic: .*full_name, email, phone/m);
    expect(report.totals).toMatchObject({ read: 5, created: 5, rejected: 0 });
    expect(person(contacts, 'Grace Hopper')).toMatchObject({
      emails: ['grace@example.com other'],
      phones: ['+12025550143 other'],
      birthday: '1906-12-09',
      company: 'US Navy',
    });
  });
});

/**
 * A detection bug once fixed: detection compared header names relaxed, the mapper exactly, so
 * these files were detected and then every record rejected no_identity. Each is detected and loaded.
 */
describe('whatever detection accepts, the mapper maps', () => {
  const cases: { name: string; file: string; bytes: Buffer; pipeline: string; email: string }[] = [
    {
      name: 'Data Loader header (EMAIL, PHONE, FIRSTNAME)',
      file: 'contacts-extract.csv',
      bytes: Buffer.from(
        '"ID","FIRSTNAME","LASTNAME","EMAIL","PHONE","TITLE"\n"003A","Ann","Lee","ann@example.com","(415) 555-2671","CEO"\n"003B","Bo","Li","bo@example.com","",""\n',
      ),
      pipeline: 'sales-crm-csv',
      email: 'ann@example.com',
    },
    {
      name: 'HubSpot header',
      file: 'hubspot-crm-exports-all-contacts.csv',
      bytes: Buffer.from(
        'Record ID,First Name,Last Name,Email,Phone Number,Lifecycle Stage\n1,Ann,Lee,ann@example.com,(415) 555-2671,Lead\n2,Bo,Li,bo@example.com,,Customer\n',
      ),
      pipeline: 'marketing-crm-csv',
      email: 'ann@example.com',
    },
    {
      name: 'European Name;Email;Phone in Windows-1252',
      file: 'kontakte.csv',
      bytes: iconv.encode(
        'Name;Email;Phone\r\nÄnne Lée;ann@example.com;+1 415 555 2671\r\nBø Li;bo@example.com;\r\n',
        'windows-1252',
      ),
      pipeline: 'plain-list',
      email: 'ann@example.com',
    },
    {
      name: 'lower-cased address-book header',
      file: 'google-lower.csv',
      bytes: Buffer.from(
        'first name,last name,e-mail 1 - label,e-mail 1 - value,phone 1 - label,phone 1 - value,labels\nAnn,Lee,* Work,ann@example.com,Mobile,+1 415 555 2671,Friends\nBo,Li,,bo@example.com,,,\n',
      ),
      pipeline: 'address-book-csv',
      email: 'ann@example.com',
    },
    {
      name: 'service field names in other case (FULL_NAME, Email)',
      file: 'people.csv',
      bytes: Buffer.from(
        'FULL_NAME,Email,Phone,Groups\nAnn Lee,ann@example.com,+1 415 555 2671,Friends\nBo Li,bo@example.com,,\n',
      ),
      pipeline: 'generic',
      email: 'ann@example.com',
    },
  ];

  it.each(cases)('$name: detected as $pipeline, both records created', async (c) => {
    const dir = tempDir();
    const input = join(dir, c.file);
    writeFileSync(input, c.bytes);
    const { result, report, contacts } = await runDetected(input);
    expect(result.stdout).toContain(`Detected pipeline ${c.pipeline}: `);
    expect(report.totals).toMatchObject({ read: 2, created: 2, rejected: 0 });
    const ann = contacts.find((x) => x.contact_emails.some((e) => e.email === c.email));
    expect(ann, JSON.stringify(contacts)).toBeDefined();
    expect(ann!['last_name']).toMatch(/^L[eé]e$/);
    expect(ann!.contact_phone_numbers.map((p) => p.phone_number_sanitized)).toEqual(['+14155552671']);
  });
});
