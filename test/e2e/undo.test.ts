import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadInProcess, readIssues, readReport, ROOT, runCli, type TestService } from './harness.js';
import { undoOn } from '../support/in-process-runs.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { perTest } from '../support/per-test.js';
import type { UndoReport } from '../../src/undo/index.js';
import { CONTACT_SCALAR_FIELDS } from '../../src/core/schemas/index.js';

const t = perTest();

/*
 * The command line's undo is spawned where it is what is checked: its exit code for a conflict, its
 * --json output, a refusal on stderr. The runs before an undo, and undos whose report is what is
 * checked, run in this process.
 */

/** The scalar fields of the response shape, as /_local/ stores them. */
const SCALARS = CONTACT_SCALAR_FIELDS;

const scalarsOf = (c: Record<string, unknown>) => Object.fromEntries(SCALARS.map((f) => [f, c[f] ?? null]));

const readUndo = (out: string): UndoReport =>
  JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as UndoReport;

const cli = (svc: TestService, dir: string, args: string[]) =>
  runCli([...args, '--target', svc.service.url, '--state', join(dir, 'state')], {
    cwd: dir,
    env: { CONTACT_IMPORT_API_KEY: svc.key },
  });

const seed = async (svc: TestService) =>
  svc.client.createContacts([
    {
      first_name: 'Old',
      job_title: 'Intern',
      company: 'Acme',
      source: 'mobile',
      contact_emails: [{ email: 'person.0@example.com' }],
    },
    {
      full_name: 'Person Number1',
      job_title: 'Chief',
      contact_emails: [{ email: 'person.1@example.com' }],
    },
  ]);

// A hang guard, not a speed check: on a busy two-core machine the first test also pays for
// loading what the runs and undos in this process use.
describe('contact-import undo', { timeout: 120_000 }, () => {
  it('takes a run back: created contacts archived, scalar fields restored, a hand edit kept as a conflict', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const [a, b] = await seed(svc);
    const before = new Map((await svc.client.local.contacts()).map((c) => [c.id, scalarsOf(c)]));
    const file = writeGenericCsv(dir, 'people.csv', people(5));
    const state = join(dir, 'state');
    const run = await loadInProcess(svc, file, { stateDir: state, outDir: join(dir, 'run') });
    expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
    const runReport = readReport(join(dir, 'run'));
    expect(runReport.totals).toMatchObject({ created: 3, updated: 2 });
    const changes = parse(readFileSync(join(dir, 'run', 'changes.csv'), 'utf8'), { columns: true });
    expect(changes).toContainEqual(
      expect.objectContaining({ contact_id: a!.id, field: 'job_title', old: 'Intern' }),
    );

    // Between the run and the undo, someone edits one field the run wrote.
    await svc.client.updateContact(b!.id, { job_title: 'Edited by hand' });

    // A dry run of the undo says what it would do and changes nothing.
    const stored = await svc.client.local.contacts();
    // (The command line's `undo --dry-run`: test/e2e/sync-weeks.test.ts.)
    const dry = await undoOn(
      svc,
      join(dir, 'run'),
      { stateDir: state, outDir: join(dir, 'dry') },
      { dryRun: true },
    );
    expect(dry.report.exitCode).toBe(1);
    expect(readUndo(join(dir, 'dry'))).toMatchObject({
      kind: 'undo',
      dryRun: true,
      undoOf: runReport.runId,
      totals: { archived: 3, restored: 1, conflicts: 1, failed: 0 },
    });
    expect(await svc.client.local.contacts()).toEqual(stored);

    const undo = await cli(svc, dir, ['undo', runReport.runId, '--out', join(dir, 'undo')]);
    expect(undo.code, undo.stderr).toBe(1);
    const report = readUndo(join(dir, 'undo'));
    // 5 contacts, 3 groups (Even, Odd, Everyone) and 1 custom field: each ends in one outcome.
    expect(report).toMatchObject({
      kind: 'undo',
      undoOf: runReport.runId,
      status: 'completed',
      exitCode: 1,
      totals: { read: 9, archived: 3, restored: 1, conflicts: 1, notUndone: 4, failed: 0 },
      left: { groups: expect.arrayContaining(['Even', 'Odd', 'Everyone']), customFields: ['Favorite Color'] },
    });
    const { read, ...outcomes } = report.totals;
    expect(Object.values(outcomes).reduce((n, v) => n + v, 0)).toBe(read);
    expect(report.requests.byEndpoint['PUT /v1/contacts/']?.sent).toBeGreaterThanOrEqual(1);

    const after = await svc.client.local.contacts();
    for (const contact of after) {
      if (contact.id === a!.id) expect(scalarsOf(contact)).toEqual(before.get(a!.id));
      else if (contact.id === b!.id) {
        // `source` takes no empty value in a write: the one field an undo cannot clear (listed).
        expect(scalarsOf(contact)).toEqual({
          ...before.get(b!.id),
          job_title: 'Edited by hand',
          source: 'csv_import',
        });
      } else expect(contact.is_archived).toBe(true);
    }
    expect(after).toHaveLength(5);
    const issues = readIssues(join(dir, 'undo'));
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'undo_conflict', field: 'job_title', value: 'Edited by hand' }),
    );
    expect(issues.filter((i) => i.code === 'undo_not_undone').map((i) => i.value)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^contact_phone_numbers: \+1 415/),
        expect.stringMatching(/^group "Everyone"/),
        expect.stringMatching(/^custom field "Favorite Color"/),
        expect.stringMatching(/^source cannot be set back to ""/),
      ]),
    );
    const html = readFileSync(join(dir, 'undo', 'report.html'), 'utf8');
    expect(html).toContain('Fields restored');
    expect(html).toContain(runReport.runId);

    // Undo twice: the second sends nothing at all and changes nothing.
    const again = await cli(svc, dir, ['undo', join(dir, 'run'), '--out', join(dir, 'again'), '--json']);
    const second = JSON.parse(again.stdout) as UndoReport;
    expect(second.requests.sent).toBe(0);
    expect(second.totals).toEqual(report.totals);
    expect(second.earlier).toBe(9);
    expect(await svc.client.local.contacts()).toEqual(after);

    // The archived contacts are created again by a later run of the same file, not counted unchanged.
    const rerun = await loadInProcess(svc, file, { stateDir: state, outDir: join(dir, 'rerun') });
    expect(rerun.report.exitCode, JSON.stringify(rerun.report.error)).toBe(0);
    expect(readReport(join(dir, 'rerun')).totals).toMatchObject({ created: 3, updated: 2, unchanged: 0 });
  });

  it('takes back a later run that updated contacts the ledger already knew', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const rows = people(4);
    const state = join(dir, 'state');
    // The runs to undo, in this process: the command line's run before an undo is the first test's.
    const first = await loadInProcess(svc, writeGenericCsv(dir, 'a.csv', rows), {
      stateDir: state,
      outDir: join(dir, 'a'),
    });
    expect(first.report.exitCode, JSON.stringify(first.report.error)).toBe(0);
    const before = new Map((await svc.client.local.contacts()).map((c) => [c.id, scalarsOf(c)]));

    // The same people, two with a new title: the ledger resolves them, no e-mail search decides.
    const changed = rows.map((p) => (p.i < 2 ? { ...p, title: `Director ${p.i}` } : p));
    const second = await loadInProcess(svc, writeGenericCsv(dir, 'b.csv', changed), {
      stateDir: state,
      outDir: join(dir, 'b'),
    });
    expect(second.report.exitCode, JSON.stringify(second.report.error)).toBe(0);
    expect(readReport(join(dir, 'b')).totals).toMatchObject({ updated: 2, unchanged: 2 });
    const changes = parse(readFileSync(join(dir, 'b', 'changes.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(changes.map((c) => [c.field, c.old, c.new])).toEqual([
      ['job_title', 'Engineer 0', 'Director 0'],
      ['job_title', 'Engineer 1', 'Director 1'],
    ]);

    const undo = await undoOn(svc, join(dir, 'b'), { stateDir: state, outDir: join(dir, 'undo') });
    expect(undo.report.exitCode, JSON.stringify(undo.report.error)).toBe(0);
    expect(readUndo(join(dir, 'undo')).totals).toMatchObject({
      restored: 2,
      archived: 0,
      conflicts: 0,
      failed: 0,
    });
    const after = await svc.client.local.contacts();
    expect(new Map(after.map((c) => [c.id, scalarsOf(c)]))).toEqual(before);
  });

  it("refuses an --out that is the run's own folder, before anything is written", async () => {
    const svc = await t.start();
    const dir = t.dir();
    const file = writeGenericCsv(dir, 'people.csv', people(2));
    const run = await loadInProcess(svc, file, { stateDir: join(dir, 'state'), outDir: join(dir, 'run') });
    expect(run.report.exitCode).toBe(0);
    const report = readFileSync(join(dir, 'run', 'report.json'), 'utf8');
    // In this process: the refusal is the library's, the one line the command line prints for it
    // its `code: message` (how a stop reads there: the spawned undos above, run-target.test.ts).
    const refused = await undoOn(svc, join(dir, 'run'), {
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'run'),
    }).then(
      ({ report }) => (report.exitCode === 2 ? `${report.error?.code}: ${report.error?.message}` : undefined),
      (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
    );
    expect(refused).toMatch(/output_replaces_input: the output .*report\.json would replace the input/);
    expect(readFileSync(join(dir, 'run', 'report.json'), 'utf8')).toBe(report);
    expect((await svc.client.local.contacts()).every((c) => !c.is_archived)).toBe(true);
  });

  it('finishes after a kill -9 mid-way with the same command, sending each chunk at most twice', async () => {
    const svc = await t.start();
    const dir = t.dir();
    // 3 chunks of 10: what is checked depends on the chunks, not their size.
    const file = writeGenericCsv(dir, 'people.csv', people(25));
    const state = join(dir, 'state');
    const run = await loadInProcess(svc, file, { stateDir: state, outDir: join(dir, 'run') });
    expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
    const chunkSize = 10;
    const hooked = {
      undo: {
        run: join(dir, 'run'),
        target: svc.service.url,
        stateDir: state,
        outDir: join(dir, 'killed'),
        // One chunk at a time: the kill lands after the second chunk, before the third is sent.
        concurrency: 1,
        chunkSize,
      },
      killAt: 'undo-sent:2',
    };
    const killed = await new Promise<NodeJS.Signals | null>((done) =>
      spawn(process.execPath, [join(ROOT, 'test/support/hooked-undo.mjs'), JSON.stringify(hooked)], {
        cwd: dir,
        env: { ...process.env, CONTACT_IMPORT_API_KEY: svc.key },
        stdio: 'ignore',
      }).on('close', (_code, signal) => done(signal)),
    );
    expect(killed).toBe('SIGKILL');
    const midway = await svc.client.local.contacts();
    expect(midway.filter((c) => c.is_archived)).toHaveLength(20);

    // The same undo again, in this process: its report and the service are what is checked.
    const undo = await undoOn(
      svc,
      join(dir, 'run'),
      { stateDir: state, outDir: join(dir, 'undo') },
      { chunkSize },
    );
    expect(undo.report.exitCode, JSON.stringify(undo.report.error)).toBe(0);
    const report = readUndo(join(dir, 'undo'));
    expect(report.totals).toMatchObject({ archived: 25, failed: 0, conflicts: 0 });
    // The first chunk was settled before the kill; the second (applied, not recorded) and third are sent.
    // The first chunk (10) and the 4 definitions (3 groups, 1 custom field: nothing to send).
    expect(report.earlier).toBe(14);
    expect(report.requests.byEndpoint['PUT /v1/contacts/']?.sent).toBe(2);
    const after = await svc.client.local.contacts();
    expect(after).toHaveLength(25);
    expect(after.every((c) => c.is_archived)).toBe(true);

    const again = await undoOn(
      svc,
      join(dir, 'run'),
      { stateDir: state, outDir: join(dir, 'again') },
      { chunkSize },
    );
    expect(again.report.exitCode).toBe(0);
    expect(readUndo(join(dir, 'again')).requests.sent).toBe(0);
  });
});
