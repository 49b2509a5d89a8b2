import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/run-report.js';
import { runImport, type RunOptions } from '../../src/run/run.js';
import { outcomes, readIssues, readReport, startService, tempDir, type TestService } from './harness.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { refusalOf } from './cli-in-process.js';
import { keptMessages } from '../support/in-process-runs.js';

let svc: TestService;
let dir: string;

/**
 * `run generic <file> --target <svc> --state <dir>/state --out <dir>/<out>` in this process: what
 * the run loads, sends and reports is the library's. What the command line adds (its exit code,
 * its one line for a stop, what it prints) is checked where it is spawned: run-target.test.ts,
 * run-while-reading.test.ts, crash-resume.test.ts.
 */
const runHere = async (
  file: string,
  out: string,
  settings: Pick<RunOptions, 'chunkSize' | 'dryRun'> = {},
  key = svc.key,
): Promise<RunReport> =>
  (
    await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: svc.service.url, apiKey: key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, out),
      ...settings,
    })
  ).report;

const storedByEmail = async (client = svc.client) => {
  const contacts = await client.local.contacts();
  const byEmail = new Map<string, (typeof contacts)[number]>();
  for (const c of contacts) for (const e of c.contact_emails) byEmail.set(e.email, c);
  return { contacts, byEmail };
};

beforeEach(async () => {
  dir = tempDir();
});
afterEach(async () => {
  await svc?.close();
});

describe('contact-import run against the local service', () => {
  it('loads every record with its normalized e-mails, phones, groups and custom field values', async () => {
    svc = await startService();
    const rows = people(30);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    // In this process, what it logged kept: the command line's stderr for it.
    const { logger, messages } = keptMessages();
    const { report: done } = await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'first'),
      logger: logger.child({}, { level: 'warn' }),
    });
    expect(messages).toEqual([]);
    expect(done.exitCode).toBe(0);
    const report = readReport(join(dir, 'first'));
    expect(report.totals).toMatchObject({ read: 30, created: 30, rejected: 0, failed: 0 });
    expect(report.groups).toEqual({ created: 3, existing: 0 });
    expect(report.customFields).toEqual({ created: 1, existing: 0 });

    const groups = new Map((await svc.client.local.groups()).map((g) => [g.id, g.name]));
    const fields = await svc.client.local.customFields();
    expect(fields.map((f) => f.name)).toEqual(['Favorite Color']);
    const { contacts, byEmail } = await storedByEmail();
    expect(contacts).toHaveLength(30);
    for (const p of rows) {
      const stored = byEmail.get(p.email.toLowerCase());
      expect(stored, p.email).toBeDefined();
      expect(stored!.contact_emails.map((e) => e.email)).toEqual([p.email.toLowerCase()]);
      const digits = p.phone.replace(/\D/g, '');
      expect(stored!.contact_phone_numbers[0]!.phone_number_sanitized).toBe(`+1${digits}`);
      expect(stored!.groups_contacts.map((g) => groups.get(g.group_id)).sort()).toEqual(
        [p.group, 'Everyone'].sort(),
      );
      expect(stored!.custom_fields).toMatchObject([{ id: fields[0]!.id, text_value: p.color }]);
      expect(stored!.job_title).toBe(p.title);
    }
  });

  it('sends no contact request on an identical rerun, and exactly the changed rows as updates', async () => {
    svc = await startService();
    const rows = people(40);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    expect((await runHere(file, 'first')).exitCode).toBe(0);
    const before = await storedByEmail();

    const second = await runHere(file, 'second');
    expect(second.exitCode).toBe(0);
    expect(second.totals).toMatchObject({ read: 40, created: 0, updated: 0, unchanged: 40 });
    // The one request of a rerun is the target probe; no contact, group or field request.
    expect(second.requests.sent).toBe(1);
    const after = await storedByEmail();
    expect(after.contacts.map((c) => c.updated_at)).toEqual(before.contacts.map((c) => c.updated_at));

    const changed = rows.map((p) =>
      p.i === 3 || p.i === 17 || p.i === 38 ? { ...p, title: `Director ${p.i}` } : p,
    );
    const changedFile = writeGenericCsv(dir, 'people-changed.csv', changed);
    const third = await runHere(changedFile, 'third');
    expect(third.exitCode).toBe(0);
    expect(third.totals).toMatchObject({ read: 40, created: 0, updated: 3, unchanged: 37 });
    // The probe, one exact search per changed contact (its before-image, for undo), one update.
    expect(third.requests.sent).toBe(5);
    expect(third.requests.byEndpoint['GET /v1/search/contacts']?.sent).toBe(4);
    const final = await storedByEmail();
    expect(final.contacts).toHaveLength(40);
    for (const i of [3, 17, 38])
      expect(final.byEmail.get(`person.${i}@example.com`)!.job_title).toBe(`Director ${i}`);
    expect(final.byEmail.get('person.4@example.com')!.job_title).toBe('Engineer 4');
  });

  it('updates people the target already holds instead of creating them again', async () => {
    svc = await startService();
    await svc.client.createContacts([
      { full_name: 'Old Name 1', contact_emails: [{ email: 'person.1@example.com' }] },
      { full_name: 'Old Name 2', contact_emails: [{ email: 'PERSON.2@example.com' }] },
      { full_name: 'Someone Else', contact_emails: [{ email: 'else@example.com' }] },
    ]);
    const file = writeGenericCsv(dir, 'people.csv', people(10));
    const report = await runHere(file, 'out');
    expect(report.exitCode).toBe(0);
    expect(report.totals).toMatchObject({ read: 10, created: 8, updated: 2 });
    const { contacts, byEmail } = await storedByEmail();
    expect(contacts).toHaveLength(11);
    expect(byEmail.get('person.1@example.com')!.full_name).toBe('Person Number1');
    const emails = contacts.flatMap((c) => c.contact_emails.map((e) => e.email.toLowerCase()));
    expect(new Set(emails).size).toBe(emails.length);
  });

  it.each([
    ['a 20% fault rate', { failRate: 0.2, seed: 11 }, 20],
    // 24 chunks at 4 in flight against 5 requests/s, not announced: the limit is hit, 429s and
    // Retry-After follow (an announced one is paced before any: rate-limit-announced.test.ts).
    ['a rate limit of 5 requests/s', { rateLimit: 5, rateLimitHeaders: false, seed: 3 }, 5],
  ])('loads everything exactly once against %s', async (_name, faults, chunkSize) => {
    svc = await startService(faults);
    const rows = people(120);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    const report = await runHere(file, 'out', { chunkSize });
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    expect(report.totals).toMatchObject({ read: 120, created: 120, failed: 0 });
    expect(report.requests.retried).toBeGreaterThan(0);
    const { contacts, byEmail } = await storedByEmail();
    expect(contacts).toHaveLength(120);
    expect(byEmail.size).toBe(120);
    expect((await svc.client.local.groups()).map((g) => g.name).sort()).toEqual(['Even', 'Everyone', 'Odd']);
  });

  it('keeps two users on one service apart, in the service and in the ledger', async () => {
    svc = await startService();
    const second = svc.service.addUser();
    const file = writeGenericCsv(dir, 'people.csv', people(15));
    const a = await runHere(file, 'a');
    const b = await runHere(file, 'b', {}, second);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    // Each user's first run creates everything: the ledger did not mix them up.
    expect(a.totals.created).toBe(15);
    expect(b.totals.created).toBe(15);
    const { createLocalClient } = await import('../support/local-client.js');
    const other = createLocalClient({ baseUrl: svc.service.url, apiKey: second });
    const mine = await svc.client.local.contacts();
    const theirs = await other.local.contacts();
    await other.close();
    expect(mine).toHaveLength(15);
    expect(theirs).toHaveLength(15);
    expect(new Set([...mine, ...theirs].map((c) => c.id)).size).toBe(30);
    // And each rerun is unchanged for its own user.
    const b2 = await runHere(file, 'b2', {}, second);
    expect(b2.exitCode).toBe(0);
    expect(b2.totals.unchanged).toBe(15);
  });

  it('--dry-run against a target with existing contacts reports the creates and updates it would do, and sends none', async () => {
    svc = await startService();
    await svc.client.createContacts([
      { full_name: 'P0', contact_emails: [{ email: 'person.0@example.com' }] },
      { full_name: 'P5', contact_emails: [{ email: 'person.5@example.com' }] },
    ]);
    const file = writeGenericCsv(dir, 'people.csv', people(10));
    // In this process: what a dry run reports and sends is the library's.
    expect((await runHere(file, 'dry', { dryRun: true })).exitCode).toBe(0);
    const report = readReport(join(dir, 'dry'));
    expect(report.dryRun).toBe(true);
    expect(report.totals).toMatchObject({ read: 10, created: 8, updated: 2 });
    expect(outcomes(report)).toBe(report.totals.read);
    expect(await svc.client.local.contacts()).toHaveLength(2);
    expect(await svc.client.local.groups()).toHaveLength(0);
    expect(readIssues(join(dir, 'dry'))).toEqual([]);
  });

  // The command line's exit 2 and its one line for a refused key are run-target.test.ts's; the
  // stop itself is the library's, in this process: the line it prints is this error's.
  it('stops with exit 2 and one clear line when the key is wrong, sending nothing', async () => {
    svc = await startService();
    const file = writeGenericCsv(dir, 'people.csv', people(5));
    const stop = await refusalOf(
      runImport({
        pipeline: 'generic',
        inputs: [file],
        target: { url: svc.service.url, apiKey: 'wrong-key-0123456789' },
        stateDir: join(dir, 'state'),
        outDir: join(dir, 'out'),
      }),
    );
    expect(stop?.code).toBe('auth_failed');
    expect(stop?.message).not.toContain('\n');
    expect(stop?.message).not.toContain('wrong-key-0123456789');
    expect(await svc.client.local.contacts()).toHaveLength(0);
  });
});

describe('contact-import run isolates the records a service refuses', () => {
  it('loads 99 of a 100-record bulk request whose one record the service refuses, and reports that one', async () => {
    svc = await startService();
    const { randomUUID } = await import('node:crypto');
    const { writeFileSync, readFileSync } = await import('node:fs');
    const records = people(100).map((p) => ({
      full_name: `Person Number${p.i}`,
      contact_emails: [{ email: p.email }],
      // A contact id from another account: valid in shape, unknown to this user, so the service says 400.
      ...(p.i === 57 ? { related_contacts: { append: [{ destination: randomUUID() }] } } : {}),
    }));
    const file = join(dir, 'people.json');
    writeFileSync(file, JSON.stringify(records));
    const report = await runHere(file, 'out');
    expect(report.exitCode).toBe(1);
    expect(report.totals).toMatchObject({ read: 100, created: 99, failed: 1, rejected: 0 });
    // One request of 100 refused, then halves: 50+50, 25+25, 13+12, 7+6, 4+3, 2+2, 1+1 (7 splits).
    expect(report.requests.failed).toBe(8);
    const issues = readIssues(join(dir, 'out'));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      row: '58',
      severity: 'error',
      stage: 'load',
      code: 'service_rejected',
    });
    expect(issues[0]!.message).toMatch(/related_contacts\.append\.0\.destination/);
    const rejected = JSON.parse(readFileSync(join(dir, 'out', 'rejected.json'), 'utf8')) as {
      contact_emails: { email: string }[];
    }[];
    expect(rejected.map((r) => r.contact_emails[0]!.email)).toEqual(['Person.57@Example.com']);
    const stored = await svc.client.local.contacts();
    expect(stored).toHaveLength(99);
    expect(stored.some((c) => c.contact_emails.some((e) => e.email === 'person.57@example.com'))).toBe(false);
  });
});
