import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, type TestService } from './harness.js';
import { perTest } from '../support/per-test.js';
import type { LocalContact } from '../../src/core/schemas/index.js';
import { runImport } from '../../src/run/run.js';
import { undoRun } from '../../src/undo/index.js';

const t = perTest();

/** One person of the HR export: a second e-mail, a second phone and a title, each may go. */
interface Employee {
  i: number;
  email2?: boolean;
  phone2?: boolean;
  title?: boolean;
}

const HEADER = ['full_name', 'email', 'email_2', 'phone', 'phone_2', 'job_title', 'company'];

const rowOf = (p: Employee, columns: readonly string[]): string[] => {
  const cells: Record<string, string> = {
    full_name: `Employee Number${p.i}`,
    email: `employee.${p.i}@hr.example.com`,
    email_2: p.email2 === false ? '' : `e${p.i}.private@example.org`,
    phone: `(415) 555-${String(1000 + p.i)}`,
    phone_2: p.phone2 === false ? '' : `(415) 555-${String(2000 + p.i)}`,
    job_title: p.title === false ? '' : `Engineer ${p.i}`,
    company: 'Acme',
  };
  return columns.map((c) => cells[c]!);
};

const writeExport = (dir: string, name: string, people: Employee[], columns = HEADER): string => {
  const path = join(dir, name);
  writeFileSync(path, stringify([columns, ...people.map((p) => rowOf(p, columns))]));
  return path;
};

const everyone = (from: number, to: number): Employee[] =>
  Array.from({ length: to - from }, (_, k) => ({ i: from + k }));

/**
 * `run generic <file> [--sync <scope>] [--dry-run] --target <svc> --state <dir>/state --out <out>`
 * in this process: what the weeks check is what the runs and undos did (reports, changes.csv, the
 * service, the state's list of runs); the command line's own part here is `runs --json`.
 */
const load = async (
  svc: TestService,
  dir: string,
  file: string,
  out: string,
  settings: { sync?: string; dryRun?: boolean } = {},
): Promise<number> =>
  (
    await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(dir, 'state'),
      outDir: out,
      ...settings,
    })
  ).report.exitCode;

const byEmail = async (svc: TestService): Promise<Map<string, LocalContact>> =>
  new Map((await svc.client.local.contacts()).map((c) => [c.contact_emails[0]?.email ?? c.id, c]));

const emailsOf = (c: LocalContact | undefined) => c?.contact_emails.map((e) => e.email).sort();
/** The phones' last ten digits: E11 stores the number as sent, a later update may show it otherwise. */
const phonesOf = (c: LocalContact | undefined) =>
  c?.contact_phone_numbers.map((p) => p.phone_number.replace(/\D/g, '').slice(-10)).sort();

const changesOf = (out: string): Record<string, string>[] =>
  parse(readFileSync(join(out, 'changes.csv'), 'utf8'), { columns: true });

/** Writes (PUT) the service received so far, by route: what "nothing sent" is counted with. */
const writes = (svc: TestService): number =>
  Object.entries(svc.service.requestCounts())
    .filter(([route]) => route.startsWith('PUT') || route.startsWith('POST'))
    .reduce((n, [, count]) => n + count, 0);

describe('run --sync: four weekly exports in a row', () => {
  it('archives leavers, removes dropped e-mails and phones, clears emptied cells, brings a comeback back, refuses a truncated export, and leaves every other contact alone', async () => {
    const svc = await t.start();
    const dir = t.dir();
    // Outside the scope: a contact made by hand, one loaded by a run without --sync, another scope.
    await svc.client.createContacts([
      { full_name: 'Hand Made', job_title: 'Boss', contact_emails: [{ email: 'hand@example.com' }] },
    ]);
    const plain = writeExport(dir, 'plain.csv', everyone(100, 102));
    expect(await load(svc, dir, plain, join(dir, 'plain'))).toBe(0);
    const contractors = writeExport(dir, 'contractors.csv', everyone(200, 203));
    expect(await load(svc, dir, contractors, join(dir, 'c1'), { sync: 'contractors' })).toBe(0);
    const outside = async () =>
      [...(await byEmail(svc)).values()].filter((c) => !/^Employee Number\d\d?$/.test(String(c.full_name)));
    const untouched = await outside();
    expect(untouched).toHaveLength(6);

    // Week 1: 20 employees.
    const week1 = writeExport(dir, 'week1.csv', everyone(0, 20));
    expect(await load(svc, dir, week1, join(dir, 'w1'), { sync: 'hr' })).toBe(0);
    expect(readReport(join(dir, 'w1'))).toMatchObject({
      totals: { created: 20 },
      sync: { scope: 'hr', archived: 0, unarchived: 0, valuesRemoved: 0, fieldsCleared: 0 },
    });

    // Week 2: employees 0 and 1 left, 2 and 3 dropped their second e-mail, 4 lost a phone, 5's
    // title was emptied; the company column is gone from the export (a dropped column clears nothing).
    const week2People = everyone(2, 20).map((p) =>
      p.i === 2 || p.i === 3
        ? { ...p, email2: false }
        : p.i === 4
          ? { ...p, phone2: false }
          : p.i === 5
            ? { ...p, title: false }
            : p,
    );
    const week2 = writeExport(
      dir,
      'week2.csv',
      week2People,
      HEADER.filter((c) => c !== 'company'),
    );
    const before2 = await byEmail(svc);
    const sentBefore = writes(svc);
    expect(await load(svc, dir, week2, join(dir, 'w2-dry'), { sync: 'hr', dryRun: true })).toBe(0);
    expect(writes(svc)).toBe(sentBefore);
    expect(await byEmail(svc)).toEqual(before2);
    expect(readReport(join(dir, 'w2-dry')).sync).toEqual({
      scope: 'hr',
      archived: 2,
      unarchived: 0,
      valuesRemoved: 3,
      fieldsCleared: 1,
    });
    const preview = changesOf(join(dir, 'w2-dry'));
    const id = (i: number) => before2.get(`employee.${i}@hr.example.com`)!.id;
    expect(preview).toEqual(
      expect.arrayContaining([
        { file: '', row: '', contact_id: id(0), field: 'is_archived', old: 'false', new: 'true' },
        { file: '', row: '', contact_id: id(1), field: 'is_archived', old: 'false', new: 'true' },
        expect.objectContaining({
          contact_id: id(2),
          field: 'contact_emails',
          old: 'e2.private@example.org',
          new: '',
        }),
        expect.objectContaining({
          contact_id: id(3),
          field: 'contact_emails',
          old: 'e3.private@example.org',
          new: '',
        }),
        expect.objectContaining({
          contact_id: id(4),
          field: 'contact_phone_numbers',
          old: '+14155552004',
          new: '',
        }),
        expect.objectContaining({ contact_id: id(5), field: 'job_title', old: 'Engineer 5', new: '' }),
      ]),
    );
    expect(preview.filter((r) => r.field === 'company')).toEqual([]);
    expect(readFileSync(join(dir, 'w2-dry', 'report.html'), 'utf8')).toContain('is_archived');

    expect(await load(svc, dir, week2, join(dir, 'w2'), { sync: 'hr' })).toBe(0);
    expect(readReport(join(dir, 'w2')).sync).toEqual(readReport(join(dir, 'w2-dry')).sync);
    const after2 = await byEmail(svc);
    const at = (i: number) => after2.get(`employee.${i}@hr.example.com`);
    expect([at(0)?.is_archived, at(1)?.is_archived, at(2)?.is_archived]).toEqual([true, true, false]);
    expect(emailsOf(at(2))).toEqual(['employee.2@hr.example.com']);
    expect(emailsOf(at(3))).toEqual(['employee.3@hr.example.com']);
    expect(emailsOf(at(6))).toEqual(['e6.private@example.org', 'employee.6@hr.example.com']);
    expect(phonesOf(at(4))).toEqual(['4155551004']);
    expect(phonesOf(at(6))).toEqual(['4155551006', '4155552006']);
    expect(at(5)?.job_title).toBeNull();
    expect(at(6)?.job_title).toBe('Engineer 6');
    expect(at(6)?.company).toBe('Acme');
    expect(svc.service.requestCounts()['PUT /api/rest/contacts/:id']).toBe(3);

    // Week 3: employee 0 comes back with a new e-mail beside the old one.
    const week3 = writeExport(
      dir,
      'week3.csv',
      [{ i: 0 }, ...week2People],
      HEADER.filter((c) => c !== 'company'),
    );
    expect(await load(svc, dir, week3, join(dir, 'w3'), { sync: 'hr' })).toBe(0);
    expect(readReport(join(dir, 'w3')).sync).toMatchObject({ archived: 0, unarchived: 1 });
    const after3 = await byEmail(svc);
    expect(after3.get('employee.0@hr.example.com')).toMatchObject({ id: id(0), is_archived: false });
    expect(after3.get('employee.1@hr.example.com')?.is_archived).toBe(true);

    // Week 4: the export was cut off after 8 rows: 11 of 19 would be archived. Refused, nothing sent.
    const sentBefore4 = writes(svc);
    const week4 = writeExport(
      dir,
      'week4.csv',
      week2People.slice(0, 8),
      HEADER.filter((c) => c !== 'company'),
    );
    // In this process: the refusal and its message are the library's, the one line the command
    // line prints for it `code: message` (as for every stop: run-target.test.ts).
    expect(await load(svc, dir, week4, join(dir, 'w4'), { sync: 'hr' })).toBe(2);
    const { error } = readReport(join(dir, 'w4'));
    expect(error?.message).not.toContain('\n');
    expect(`${error?.code}: ${error?.message}`).toMatch(/sync_guard.*"hr".*archive 11 of 19.*--max-archive/);
    expect(writes(svc)).toBe(sentBefore4);
    expect(await byEmail(svc)).toEqual(after3);
    expect(readReport(join(dir, 'w4'))).toMatchObject({ status: 'aborted', error: { code: 'sync_guard' } });

    // Undo of week 2: employee 1 unarchived, the removed e-mails and phone back, the title back;
    // employee 0 came back in week 3 already (a conflict, kept).
    // In this process, the preview and the undo: the command line's exit code for an undo with a
    // conflict, the report's, is undo.test.ts's.
    const undoDry = await undoRun({
      run: join(dir, 'w2'),
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'u-dry'),
      dryRun: true,
    });
    expect(undoDry.report.exitCode).toBe(1);
    expect(await byEmail(svc)).toEqual(after3);
    const undo = await undoRun({
      run: join(dir, 'w2'),
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'u'),
    });
    expect(undo.report.exitCode, JSON.stringify(undo.report.error)).toBe(1);
    const undone = JSON.parse(readFileSync(join(dir, 'u', 'report.json'), 'utf8')) as { sync: unknown };
    expect(undone.sync).toEqual({
      unarchived: 1,
      archived: 0,
      valuesRestored: 3,
      fieldsRestored: 1,
      conflicts: 1,
    });
    const afterUndo = await byEmail(svc);
    const now = (i: number) => afterUndo.get(`employee.${i}@hr.example.com`);
    expect([now(0)?.is_archived, now(1)?.is_archived]).toEqual([false, false]);
    expect(emailsOf(now(2))).toEqual(['e2.private@example.org', 'employee.2@hr.example.com']);
    expect(emailsOf(now(3))).toEqual(['e3.private@example.org', 'employee.3@hr.example.com']);
    expect(phonesOf(now(4))).toEqual(['4155551004', '4155552004']);
    expect(now(5)?.job_title).toBe('Engineer 5');
    expect(changesOf(join(dir, 'u'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ contact_id: id(1), field: 'is_archived', old: 'true', new: 'false' }),
        expect.objectContaining({ contact_id: id(5), field: 'job_title', old: '', new: 'Engineer 5' }),
      ]),
    );

    // The state's runs, newest first, as a scheduler's log reads them.
    const runs = await runCli(['runs', '--state', join(dir, 'state'), '--json'], { cwd: dir });
    expect(runs.code, runs.stderr).toBe(0);
    const listed = JSON.parse(runs.stdout) as {
      command: string;
      dryRun: boolean;
      sync: string | null;
      status: string;
      exitCode: number;
      out: string;
    }[];
    expect(listed.slice(0, 2).map((r) => [r.command, r.dryRun])).toEqual([
      ['undo', false],
      ['undo', true],
    ]);
    expect(listed.map((r) => [r.command, r.sync, r.status, r.exitCode])).toEqual([
      ['undo', null, 'completed', 1],
      ['undo', null, 'completed', 1],
      ['run', 'hr', 'aborted', 2],
      ['run', 'hr', 'completed', 0],
      ['run', 'hr', 'completed', 0],
      ['dry run', 'hr', 'completed', 0],
      ['run', 'hr', 'completed', 0],
      ['run', 'contractors', 'completed', 0],
      ['run', null, 'completed', 0],
    ]);
    expect(listed[2]!.out).toBe(join(dir, 'w4'));

    // Contacts outside the scope were never touched by any of it.
    expect(await outside()).toEqual(untouched);
  }, 300_000);
  it('sends values a sync run removed again when they come back: the ledger no longer calls them unchanged', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const week = async (name: string, person: Employee) => {
      const path = writeExport(dir, `${name}.csv`, [person]);
      expect(await load(svc, dir, path, join(dir, name), { sync: 'hr' })).toBe(0);
      return (await svc.client.local.contacts())[0];
    };
    const both = ['e1.private@example.org', 'employee.1@hr.example.com'];
    const w1 = await week('w1', { i: 1 });
    expect([emailsOf(w1), w1?.job_title]).toEqual([both, 'Engineer 1']);
    const w2 = await week('w2', { i: 1, email2: false, title: false });
    expect([emailsOf(w2), w2?.job_title]).toEqual([['employee.1@hr.example.com'], null]);
    const w3 = await week('w3', { i: 1 });
    expect([emailsOf(w3), w3?.job_title]).toEqual([both, 'Engineer 1']);
  }, 120_000);
});
