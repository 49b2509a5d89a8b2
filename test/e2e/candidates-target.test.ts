import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { twoExports } from '../../bench/two-exports.js';
import { readReport } from './harness.js';
import { runAsCli } from './cli-in-process.js';
import { perTest } from '../support/per-test.js';

const t = perTest();

const HEADER = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'company',
  'job_title',
  'birthday',
  'legacy_location',
];

const csv = (path: string) =>
  parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

describe('duplicate candidates against the target', () => {
  it('pairs records to create with contacts of the same person under other e-mails, one name search each', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const records = twoExports({ seed: 7, people: 300 });
    // The target holds the CRM export (work e-mails); the run reads the address book (personal ones).
    const crm = records.filter((r) => r.source === 'crm');
    const created = await svc.client.createContacts(
      crm.map(({ person: p }) => ({
        ...(p.firstName ? { first_name: p.firstName } : {}),
        ...(p.lastName ? { last_name: p.lastName } : {}),
        ...(p.company ? { company: p.company } : {}),
        ...(p.jobTitle ? { job_title: p.jobTitle } : {}),
        ...(p.birthday && /^\d{4}-/u.test(p.birthday) ? { birthday: p.birthday } : {}),
        ...(p.city ? { legacy_location: p.city } : {}),
        contact_emails: (p.emails ?? []).map((email) => ({ email })),
      })),
    );
    const entityOfContact = new Map(created.map((c, i) => [c.id, crm[i]!.entity]));
    const book = records.filter((r) => r.source === 'book');
    writeFileSync(
      join(dir, 'book.csv'),
      stringify([
        HEADER,
        ...book.map(({ person: p }) => [
          p.firstName ?? '',
          p.lastName ?? '',
          p.emails?.[0] ?? '',
          p.phones?.[0] ?? '',
          p.company ?? '',
          p.jobTitle ?? '',
          p.birthday ?? '',
          p.city ?? '',
        ]),
      ]),
    );
    const before = svc.service.requestCounts()['GET /v1/contacts/search'] ?? 0;
    // `run book.csv --pipeline generic --dry-run --target <svc> --out out --state state`, in this
    // process: the pairs it writes are the library's.
    const run = await runAsCli({
      cwd: dir,
      svc,
      pipeline: 'generic',
      inputs: ['book.csv'],
      dryRun: true,
      out: 'out',
      state: 'state',
    });
    expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
    const out = join(dir, 'out');
    const toCreate = csv(join(out, 'outcomes.csv')).filter((r) => r.outcome === 'would_create');
    // One name search per record to create (each has a last name), counted at the service.
    const searches = (svc.service.requestCounts()['GET /v1/contacts/search'] ?? 0) - before;
    expect(searches).toBe(toCreate.length);

    const pairs = csv(join(out, 'candidates.csv')).filter((r) => r.b_contact_id !== '');
    expect(readReport(out).candidates!.likely).toBeGreaterThanOrEqual(
      pairs.filter((p) => p.band === 'likely').length,
    );
    const entityOfRow = (row: string) => book[Number(row) - 1]!.entity;
    const right = (p: Record<string, string>) =>
      entityOfContact.get(p.b_contact_id!) === entityOfRow(p.a_row!);
    const likely = pairs.filter((p) => p.band === 'likely');
    const precision = likely.filter(right).length / likely.length;
    // The true pairs: each record to create whose person the target holds.
    const onTarget = new Set(crm.map((r) => r.entity));
    const truth = toCreate.filter((r) => onTarget.has(entityOfRow(r.row!)));
    const foundRows = new Set(pairs.filter(right).map((p) => p.a_row));
    const recall = truth.filter((r) => foundRows.has(r.row)).length / truth.length;
    console.log(
      `target candidates: ${toCreate.length} to create, ${truth.length} on the target, ${likely.length} likely, ` +
        `precision ${precision.toFixed(3)}, likely+possible recall ${recall.toFixed(3)}, ${searches} name searches`,
    );
    expect(truth.length).toBeGreaterThan(30);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.7);
  });
});
