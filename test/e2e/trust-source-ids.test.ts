import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';
import { perTest } from '../support/per-test.js';

/**
 * The built-ins that read an export with its own ids (a marketing CRM's Record ID, a sales CRM's
 * Id, a vCard's UID) find a record again by that id when its e-mail changed, and still find a
 * person the target held before by e-mail. Counted at the service. The runs go through the
 * library in this process, each input's built-in detected as the command line detects it: what is
 * checked is what the runs did, not what the command printed (test/e2e/trust-detection.test.ts).
 */
const each = perTest();
const fresh = each.dir;
const service = (): Promise<TestService> => each.start();

/** `run <name> --target <svc> --state state --out <out>` in `cwd`; its report, exit code 0. */
const runIn = async (cwd: string, target: TestService, name: string, out: string, state?: string) => {
  const { report } = await runAsCli({
    cwd,
    svc: target,
    inputs: [name],
    out,
    ...(state ? { state } : {}),
  });
  expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
  return report;
};

/** Runs `file` twice into one target and state, the second time with `changed` as its content. */
const twice = async (name: string, first: string, changed: string) => {
  const cwd = fresh();
  const target = await service();
  writeFileSync(join(cwd, name), first);
  await runIn(cwd, target, name, 'one', 'state');
  const before = await target.client.local.contacts();
  writeFileSync(join(cwd, name), changed);
  const { totals } = await runIn(cwd, target, name, 'two', 'state');
  return { before, after: await target.client.local.contacts(), totals };
};

const emailsOf = (contact: { contact_emails: { email: string }[] } | undefined) =>
  contact?.contact_emails.map((e) => e.email);

describe('a record whose e-mail changed in its source, its source id the same', () => {
  it('marketing CRM (Record ID): updates the contact it was loaded as', async () => {
    const header = 'Record ID,First Name,Last Name,Email,Company Name\n';
    const { before, after, totals } = await twice(
      'marketing-crm.csv',
      `${header}701,Dev,Patel,dev.patel@example.com,Patel Partners\n702,Eva,Lind,eva@example.com,Lind AB\n`,
      `${header}701,Dev,Patel,dev@patel.example,Patel Partners\n702,Eva,Lind,eva@example.com,Lind AB\n`,
    );
    expect(totals).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(before).toHaveLength(2);
    expect(after).toHaveLength(2);
    const dev = before.find((c) => c.first_name === 'Dev')!;
    expect(emailsOf(after.find((c) => c.id === dev.id))).toContain('dev@patel.example');
  });

  it('sales CRM Data Loader (ID): updates the contact it was loaded as', async () => {
    const header = '"ID","FIRSTNAME","LASTNAME","EMAIL"\n';
    const { before, after, totals } = await twice(
      'sales-crm.csv',
      `${header}"0035g00000XyZ91AAB","Ingrid","Larsen","ingrid@example.no"\n`,
      `${header}"0035g00000XyZ91AAB","Ingrid","Larsen","ingrid.larsen@example.no"\n`,
    );
    expect(totals).toMatchObject({ created: 0, updated: 1 });
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(emailsOf(after[0])).toContain('ingrid.larsen@example.no');
  });

  it('vCard (UID): updates the contact it was loaded as', async () => {
    const card = (email: string) =>
      'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:6f1c2a52-1b7e-4c1e-9d35-2a8d4c0f7a11\r\n' +
      `FN:Zoë Müller\r\nN:Müller;Zoë;;;\r\nEMAIL;TYPE=INTERNET:${email}\r\nEND:VCARD\r\n`;
    const { before, after, totals } = await twice(
      'contacts.vcf',
      card('zoe@example.de'),
      card('zoe.mueller@example.de'),
    );
    expect(totals).toMatchObject({ created: 0, updated: 1 });
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before[0]!.id);
    expect(emailsOf(after[0])).toContain('zoe.mueller@example.de');
  });
});

describe('a source id our ledger has never seen', () => {
  it('the person the target already holds is found by e-mail on the first run, not created again', async () => {
    const cwd = fresh();
    const target = await service();
    const [held] = await target.client.createContacts([
      { full_name: 'Dev Patel', contact_emails: [{ email: 'dev.patel@example.com' }] },
    ]);
    writeFileSync(
      join(cwd, 'marketing-crm.csv'),
      'Record ID,First Name,Last Name,Email,Company Name\n' +
        '701,Dev,Patel,dev.patel@example.com,Patel Partners\n' +
        '702,Eva,Lind,eva@example.com,Lind AB\n',
    );
    const report = await runIn(cwd, target, 'marketing-crm.csv', 'out', 'state');
    expect(report.totals).toMatchObject({ created: 1, updated: 1 });
    const contacts = await target.client.local.contacts();
    expect(contacts).toHaveLength(2);
    expect(contacts.find((c) => c.id === held!.id)?.company).toBe('Patel Partners');
  });

  it('two records of one person with two ids still merge into one contact', async () => {
    const cwd = fresh();
    const target = await service();
    writeFileSync(
      join(cwd, 'marketing-crm.csv'),
      'Record ID,First Name,Last Name,Email,Company Name\n' +
        '701,Dev,Patel,dev.patel@example.com,Patel Partners\n' +
        '705,Dev,Patel,Dev.Patel@Example.com,\n',
    );
    const report = await runIn(cwd, target, 'marketing-crm.csv', 'out');
    expect(report.totals).toMatchObject({ created: 1, duplicates: 1 });
    expect(await target.client.local.contacts()).toHaveLength(1);
  });
});
