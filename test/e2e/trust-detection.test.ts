import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readReport, runOn, startService, tempDir, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';

/**
 * Exit 0 means nothing was lost: several exports read each with its own built-in, a header no
 * built-in reads whole stops, numbers written for another country stop naming --region, and a
 * record keyed otherwise after a fix updates its contact. Counted at the service. The command
 * line is spawned where its own output is checked (the detected built-ins, the summary's lines);
 * the other runs go through the library in this process as the command line calls it, a refusal
 * there being the ImportError the command prints as its one line with exit 2.
 */
const dirs: string[] = [];
const fresh = (): string => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};
let svc: TestService | undefined;
const service = async (): Promise<TestService> => {
  await svc?.close();
  svc = await startService();
  return svc;
};
afterAll(async () => {
  await svc?.close();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** Three people each, as a contacts app, a marketing CRM and a mail client export them. */
const ADDRESS_BOOK =
  'First Name,Last Name,Organization Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value\n' +
  'Ana,Reyes,Reyes Studio,* Work,ana.reyes@example.com,Mobile,+1 415 555 0101\n' +
  'Ben,Okafor,Okafor Labs,Home,ben.okafor@example.com,Work,+1 415 555 0102\n' +
  'Cleo,Marsh,Marsh & Co,,cleo.marsh@example.com,,+1 415 555 0103\n';
const MARKETING_CRM =
  'Record ID,First Name,Last Name,Email,Phone Number,Company Name,Lifecycle Stage\n' +
  '901,Dev,Patel,dev.patel@example.com,+1 617 555 0111,Patel Partners,Lead\n' +
  '902,Eva,Lindgren,eva.lindgren@example.com,+1 617 555 0112,Lindgren AB,Customer\n' +
  '903,Finn,Walsh,finn.walsh@example.com,+1 617 555 0113,Walsh Freight,Lead\n';
const MAIL_CLIENT =
  'First Name,Last Name,Company,E-mail Address,Mobile Phone,Categories\n' +
  'Gia,Romano,Romano SpA,gia.romano@example.com,+1 212 555 0121,Clients\n' +
  'Hugo,Brandt,Brandt GmbH,hugo.brandt@example.com,+1 212 555 0122,Clients\n' +
  'Iris,Kim,Kim Design,iris.kim@example.com,+1 212 555 0123,\n';

const storedByEmail = async (svc: TestService) => {
  const contacts = await svc.client.local.contacts();
  return new Map(contacts.flatMap((c) => c.contact_emails.map((e) => [e.email, c] as const)));
};

describe('several exports in one command', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = fresh();
    writeFileSync(join(cwd, 'address-book.csv'), ADDRESS_BOOK);
    writeFileSync(join(cwd, 'marketing-crm.csv'), MARKETING_CRM);
    writeFileSync(join(cwd, 'mail-client.csv'), MAIL_CLIENT);
  });

  it('reads each with its own built-in: every person stored with e-mail, phone and company', async () => {
    const target = await service();
    const result = await runOn(target, ['address-book.csv', 'marketing-crm.csv', 'mail-client.csv'], cwd);
    expect(result.code).toBe(0);
    for (const [file, pipeline] of [
      ['address-book.csv', 'address-book-csv'],
      ['marketing-crm.csv', 'marketing-crm-csv'],
      ['mail-client.csv', 'mail-client-csv'],
    ])
      expect(result.stdout).toContain(`Detected pipeline ${pipeline}: the header of ${file}`);
    const report = readReport(join(cwd, 'out'));
    expect(report.inputs.map((input) => input.pipeline)).toEqual([
      'address-book-csv',
      'marketing-crm-csv',
      'mail-client-csv',
    ]);
    expect(result.stdout).toMatch(/marketing-crm\.csv: 3 records read with pipeline marketing-crm-csv/);
    const stored = await storedByEmail(target);
    expect(stored.size).toBe(9);
    for (const contact of stored.values()) {
      expect(contact.contact_phone_numbers).toHaveLength(1);
      expect(contact.company).toBeTruthy();
    }
    expect(stored.get('eva.lindgren@example.com')?.company).toBe('Lindgren AB');
  });

  it('a named built-in that leaves an input e-mail or name column unused stops before sending', async () => {
    const target = await service();
    const run = runAsCli({
      cwd,
      svc: target,
      pipeline: 'address-book-csv',
      inputs: ['address-book.csv', 'marketing-crm.csv', 'mail-client.csv'],
      out: 'out',
    });
    await expect(run).rejects.toMatchObject({
      code: 'pipeline_mismatch',
      message: expect.stringMatching(
        /^pipeline address-book-csv would leave the columns Email \(e-mail\).* of \S*marketing-crm\.csv unused; the built-in marketing-crm-csv reads it/,
      ),
    });
    expect(await target.client.local.contacts()).toHaveLength(0);
  });
});

describe('a header no built-in reads whole', () => {
  it('stops with exit 2 naming init with the exact command; nothing sent', async () => {
    const cwd = fresh();
    writeFileSync(
      join(cwd, 'contacts-fr.csv'),
      'Nom;Prénom;Courriel;Portable\nDupont;Jean;jean.dupont@example.fr;+33 6 12 34 56 78\n',
    );
    const target = await service();
    // The input as the user typed it, relative to their folder: the advice repeats it.
    const run = runAsCli({ cwd, svc: target, inputs: [join(cwd, 'contacts-fr.csv')], out: 'out' });
    const refused = await run.then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string },
    );
    expect(refused?.code).toBe('pipeline_undetected');
    expect(refused?.message).toContain('plain-list, would leave its columns Prénom (name) unused');
    expect(refused?.message).toContain(`contact-import init ${join(cwd, 'contacts-fr.csv')} --out my.yaml`);
    expect(await target.client.local.contacts()).toHaveLength(0);
  });
});

describe('phone numbers written without a country', () => {
  /** 30 French mobiles written as the French write them. */
  const frenchList = (): string => {
    const rows = ['First Name,Last Name,E-mail Address,Mobile Phone'];
    for (let i = 10; i < 40; i++) rows.push(`Jean${i},Martin,jean${i}@example.com,06 12 34 56 ${i}`);
    return `${rows.join('\n')}\n`;
  };

  it('stop a run before sending, naming --region FR; with it every number loads', async () => {
    const cwd = fresh();
    writeFileSync(join(cwd, 'outlook-fr.csv'), frenchList());
    const target = await service();
    const run = (settings: { dryRun?: boolean; region?: string } = {}) =>
      runAsCli({ cwd, svc: target, inputs: ['outlook-fr.csv'], out: 'out', ...settings });
    await expect(run()).rejects.toMatchObject({
      code: 'phone_region',
      message: expect.stringMatching(
        /^30 of the first 30 numbers in column Mobile Phone of \S*outlook-fr\.csv fail under region US .* --region FR/,
      ),
    });
    expect(await target.client.local.contacts()).toHaveLength(0);
    // A dry run says it the same way.
    await expect(run({ dryRun: true })).rejects.toMatchObject({
      code: 'phone_region',
      message: expect.stringMatching(/ --region FR/),
    });

    const loaded = await run({ region: 'FR' });
    expect(loaded.report.exitCode).toBe(0);
    const contacts = await target.client.local.contacts();
    expect(contacts).toHaveLength(30);
    expect(
      contacts.every((c) => c.contact_phone_numbers[0]?.phone_number_sanitized?.startsWith('+336')),
    ).toBe(true);
  });
});

describe('a phone column dropped whole', () => {
  it('counts against --max-rejects: exit 1, the column named in the summary', async () => {
    const cwd = fresh();
    const rows = ['First Name,Last Name,E-mail Address,Mobile Phone'];
    for (let i = 10; i < 22; i++) rows.push(`Ann${i},Lee,ann${i}@example.com,ext ${i}`);
    writeFileSync(join(cwd, 'extensions.csv'), `${rows.join('\n')}\n`);
    const target = await service();
    const result = await runOn(target, ['extensions.csv'], cwd);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'extensions.csv: column Mobile Phone: 12 of 12 numbers dropped (invalid_phone), counted against --max-rejects',
    );
    expect(result.stdout).toMatch(
      /Exit 1: 12 rejected or failed \(with 12 whose phone column was dropped whole\)/,
    );
    expect(readReport(join(cwd, 'out')).inputs[0]?.droppedColumns).toEqual([
      { column: 'Mobile Phone', dropped: 12, values: 12 },
    ]);
    // Within the limit the run completes, the people loaded without the numbers.
    const allowed = await runAsCli({
      cwd,
      svc: target,
      inputs: ['extensions.csv'],
      out: 'allowed',
      maxRejects: '12',
    });
    expect(allowed.report.exitCode).toBe(0);
    expect(await target.client.local.contacts()).toHaveLength(12);
  });
});

describe('a record keyed otherwise once its e-mail is fixed', () => {
  it('updates the contact it was loaded as, never a second one', async () => {
    const cwd = fresh();
    const file = join(cwd, 'people.csv');
    const header = 'First Name,Last Name,E-mail Address,Mobile Phone\n';
    writeFileSync(
      file,
      `${header}Ada,Lovelace,ada@@example.com,+1 415 555 2671\nBo,Li,bo.li@example.com,+1 415 555 0132\n`,
    );
    const target = await service();
    const run = (out: string) => runAsCli({ cwd, svc: target, inputs: ['people.csv'], state: 'state', out });
    const first = await run('first');
    expect(first.report.exitCode).toBe(0);
    const [ada] = (await target.client.local.contacts()).filter((c) => c.first_name === 'Ada');
    expect(ada?.contact_emails).toHaveLength(0);

    writeFileSync(
      file,
      `${header}Ada,Lovelace,ada@example.com,+1 415 555 2671\nBo,Li,bo.li@example.com,+1 415 555 0132\n`,
    );
    const second = await run('second');
    expect(second.report.exitCode).toBe(0);
    expect(second.report.totals).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const contacts = await target.client.local.contacts();
    expect(contacts).toHaveLength(2);
    expect(contacts.find((c) => c.id === ada!.id)?.contact_emails.map((e) => e.email)).toEqual([
      'ada@example.com',
    ]);
  });
});
