import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { outcomes, readReport, SAMPLES, startService, tempDir, type TestService } from './harness.js';

const SAMPLE_RUNS = [
  { pipeline: 'generic', files: ['generic.csv'], created: 10, groups: 5, fields: 1, reminders: 1 },
  { pipeline: 'generic', files: ['generic.json'], created: 6, groups: 3, fields: 1, reminders: 1 },
  {
    pipeline: 'address-book-csv',
    files: ['address-book.csv'],
    created: 8,
    groups: 4,
    fields: 0,
    reminders: 0,
  },
  {
    pipeline: 'address-book-csv',
    files: ['address-book-legacy.csv'],
    created: 7,
    groups: 4,
    fields: 0,
    reminders: 0,
  },
  { pipeline: 'mail-client-csv', files: ['mail-client.csv'], created: 8, groups: 6, fields: 0, reminders: 0 },
  {
    pipeline: 'worknet-connections',
    files: ['worknet-connections.csv'],
    created: 8,
    groups: 0,
    fields: 1,
    reminders: 0,
  },
];

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('contact-import run loads each sample completely', () => {
  it.each(SAMPLE_RUNS)('$files.0 with $pipeline', async (s) => {
    svc = await startService();
    const cwd = tempDir();
    // What `run <pipeline> <files> --target <svc> --out out --max-rejects 20%` runs, in this
    // process: each sample runs on the command line in help-examples.test.ts (`npm start`).
    const result = await runImport({
      pipeline: s.pipeline,
      inputs: s.files.map((f) => join(SAMPLES, f)),
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(cwd, '.contact-import'),
      outDir: join(cwd, 'out'),
      maxRejects: '20%',
    });
    expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
    const report = readReport(join(cwd, 'out'));
    expect(report.totals.created).toBe(s.created);
    expect(report.totals.failed).toBe(0);
    expect(outcomes(report)).toBe(report.totals.read);

    const contacts = await svc.client.local.contacts();
    const groups = await svc.client.local.groups();
    const fields = await svc.client.local.customFields();
    const reminders = await svc.client.local.reminders();
    // The report's totals match what is stored.
    expect(contacts).toHaveLength(report.totals.created);
    expect(groups).toHaveLength(report.groups.created);
    expect(fields).toHaveLength(report.customFields.created);
    expect(reminders).toHaveLength(report.reminders.created);
    expect([groups.length, fields.length, reminders.length]).toEqual([s.groups, s.fields, s.reminders]);

    const groupIds = new Set(groups.map((g) => g.id));
    const fieldIds = new Set(fields.map((f) => f.id));
    const emails = contacts.flatMap((c) => c.contact_emails.map((e) => e.email));
    expect(new Set(emails).size).toBe(emails.length);
    for (const c of contacts) {
      expect(c.full_name ?? c.first_name ?? c.contact_emails[0]?.email, JSON.stringify(c)).toBeTruthy();
      for (const e of c.contact_emails) expect(e.email).toBe(e.email.toLowerCase());
      for (const p of c.contact_phone_numbers) expect(p.phone_number_sanitized).toMatch(/^\+[1-9]\d{6,14}$/);
      for (const m of c.groups_contacts) expect(groupIds.has(m.group_id)).toBe(true);
      for (const v of c.custom_fields) expect(fieldIds.has(v.id)).toBe(true);
    }
    if (s.groups > 0) expect(contacts.some((c) => c.groups_contacts.length > 0)).toBe(true);
    if (s.fields > 0) expect(contacts.some((c) => c.custom_fields.length > 0)).toBe(true);
  });

  it('merges the duplicate person of generic.csv into one contact with every e-mail, phone and group', async () => {
    svc = await startService();
    const cwd = tempDir();
    // `run generic samples/generic.csv --max-rejects 1`, in this process as above.
    const result = await runImport({
      pipeline: 'generic',
      inputs: [join(SAMPLES, 'generic.csv')],
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(cwd, '.contact-import'),
      outDir: join(cwd, 'out'),
      maxRejects: 1,
    });
    expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
    const contacts = await svc.client.local.contacts();
    const groups = new Map((await svc.client.local.groups()).map((g) => [g.id, g.name]));
    const ada = contacts.filter((c) => c.contact_emails.some((e) => e.email === 'ada@example.com'));
    expect(ada).toHaveLength(1);
    expect(ada[0]!.contact_emails.map((e) => e.email)).toEqual(['ada@example.com', 'ada.l@example.org']);
    expect(ada[0]!.contact_phone_numbers.map((p) => p.phone_number_sanitized)).toEqual([
      '+14155552671',
      '+14155550132',
    ]);
    expect(ada[0]!.groups_contacts.map((g) => groups.get(g.group_id)).sort()).toEqual([
      'Conference',
      'Friends',
      'Math Club',
    ]);
    expect(ada[0]!.starred).toBe(true);
    expect(ada[0]!.website).toBe('https://example.org/ada');
    expect(ada[0]!.birthday).toBe('1985-12-10');
    const jose = contacts.find((c) => c.contact_emails.some((e) => e.email === 'jose.garcia@example.es'));
    expect(jose).toMatchObject({ first_name: 'José', last_name: 'García', company: 'Telefónica, S.A.' });
    expect(jose!.contact_phone_numbers[0]).toMatchObject({
      phone_number_sanitized: '+34912345678',
      country_code: 'ES',
    });
  });
});
