import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';
import { readReport, runCli, startService, tempDir, type TestService } from './harness.js';
import { runAsCli, undoAsCli } from './cli-in-process.js';

type OutcomeRow = Record<'file' | 'row' | 'line' | 'outcome' | 'contact_id' | 'identity' | 'reason', string>;

const readOutcomes = (out: string): OutcomeRow[] =>
  parse(readFileSync(join(out, 'outcomes.csv'), 'utf8'), { columns: true }) as OutcomeRow[];

const count = (rows: OutcomeRow[], outcome: string) => rows.filter((r) => r.outcome === outcome).length;

const HEADER = 'full_name,email,phone,company,job_title\n';
const FULL =
  HEADER +
  'Ada Lovelace,ada@example.com,+44 20 7946 0000,Analytical Engines,Analyst\n' +
  'Grace Hopper,grace@example.com,+1 202 555 0143,US Navy,Rear Admiral\n' +
  'Ada Again,ADA@example.com,,,\n' +
  ',,,Nobody Inc,\n' +
  '=HYPERLINK(1),,,Formula Co,\n';
/** The same people, some cells left empty: under the merge rules the contacts keep those values. */
const BLANKS =
  HEADER + 'Ada Lovelace,ada@example.com,,,Analyst\n' + 'Grace Hopper,grace@example.com,+1 202 555 0143,,\n';

let svc: TestService | undefined;
let proxy: RewritingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

describe('outcomes.csv: one row per record read, in every run folder', () => {
  it('run, rerun with empty cells, validate and undo each account for every record', async () => {
    svc = await startService();
    proxy = await startRewritingProxy(svc.service.url);
    const cwd = tempDir();
    writeFileSync(join(cwd, 'full.csv'), FULL);
    writeFileSync(join(cwd, 'blanks.csv'), BLANKS);
    const env = { CONTACT_IMPORT_API_KEY: svc.key };
    const run = (out: string, file: string) =>
      runCli(
        [
          'run',
          'generic',
          file,
          '--target',
          proxy!.url,
          '--state',
          'state',
          '--out',
          out,
          '--max-rejects',
          '50%',
          '--json',
        ],
        { cwd, env },
      );

    // The other runs and the undo go through the library in this process, as the command line
    // hands them to it: what is checked is the files they write.
    const runIn = (out: string, file: string, more: { dryRun?: boolean; maxRejects?: string } = {}) =>
      runAsCli({
        cwd,
        svc: svc!,
        url: proxy!.url,
        pipeline: 'generic',
        inputs: [file],
        state: 'state',
        out,
        ...more,
      });

    const first = await run('first', 'full.csv');
    expect(first.code, first.stderr).toBe(0);
    const files = (JSON.parse(first.stdout) as { files: Record<string, string> }).files;
    expect(files['outcomes.csv']).toBe(join(cwd, 'first', 'outcomes.csv'));
    const report = readReport(join(cwd, 'first'));
    const rows = readOutcomes(join(cwd, 'first'));
    expect(rows).toHaveLength(report.totals.read);
    expect(count(rows, 'created')).toBe(report.totals.created);
    expect(count(rows, 'duplicate')).toBe(report.totals.duplicates);
    expect(count(rows, 'rejected')).toBe(report.totals.rejected);
    // Each created row names the contact the service holds.
    const stored = new Set((await svc.client.local.contacts()).map((c) => c.id));
    for (const row of rows.filter((r) => r.outcome === 'created'))
      expect(stored.has(row.contact_id)).toBe(true);
    const ada = rows.find((r) => r.row === '1')!;
    expect(ada).toMatchObject({
      file: 'full.csv',
      line: '2',
      outcome: 'created',
      identity: 'email:ada@example.com',
    });
    expect(rows.find((r) => r.row === '3')).toMatchObject({
      outcome: 'duplicate',
      identity: 'email:ada@example.com',
    });
    // Formula-safe: the name key of row 5 starts with "=" only after the escape.
    const formula = rows.find((r) => r.row === '5')!;
    expect(formula.identity.startsWith('=')).toBe(false);

    // Empty cells keep the old value: nothing changes, nothing is sent.
    proxy.requests.length = 0;
    const rerun = await runIn('blanks', 'blanks.csv', { maxRejects: '50%' });
    expect(rerun.report.exitCode, JSON.stringify(rerun.report.error)).toBe(0);
    const again = readReport(join(cwd, 'blanks'));
    expect(again.totals).toMatchObject({ read: 2, unchanged: 2, updated: 0, created: 0 });
    expect(readOutcomes(join(cwd, 'blanks')).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(proxy.requests.filter((r) => /^(PUT|POST) \/v1\/contacts/.test(r))).toEqual([]);
    const adaStored = (await svc.client.local.contacts()).find((c) => c.id === ada.contact_id);
    expect(adaStored).toMatchObject({ company: 'Analytical Engines', job_title: 'Analyst' });

    // A dry run says what it would do.
    writeFileSync(
      join(cwd, 'more.csv'),
      `${HEADER}New Person,new@example.com,,,\nAda Lovelace,ada@example.com,,,CTO\n`,
    );
    const dry = await runIn('dry', 'more.csv', { dryRun: true });
    expect(dry.report.exitCode, JSON.stringify(dry.report.error)).toBe(0);
    const planned = readOutcomes(join(cwd, 'dry')).sort((a, b) => Number(a.row) - Number(b.row));
    expect(planned.map((r) => r.outcome)).toEqual(['would_create', 'would_update']);

    // validate: a dry run with no target.
    const validate = await runAsCli({
      cwd,
      pipeline: 'generic',
      inputs: ['full.csv'],
      out: 'valid',
      maxRejects: '50%',
      dryRun: true,
    });
    expect(validate.report.exitCode, JSON.stringify(validate.report.error)).toBe(0);
    const valid = readOutcomes(join(cwd, 'valid'));
    expect(valid).toHaveLength(readReport(join(cwd, 'valid')).totals.read);
    expect(count(valid, 'would_create')).toBe(report.totals.created);

    // Undo lists what it did to each contact of the run.
    const undo = await undoAsCli({ cwd, svc, url: proxy.url, run: 'first', state: 'state', out: 'undo' });
    expect(undo.report.exitCode, JSON.stringify(undo.report)).toBe(0);
    const undone = readOutcomes(join(cwd, 'undo'));
    expect(undone).toHaveLength(report.totals.created);
    expect(undone.every((r) => r.outcome === 'archived' && stored.has(r.contact_id))).toBe(true);
    // Counted at the service: each contact undo lists is archived there.
    const archived = new Set(
      (await svc.client.local.contacts()).filter((c) => c.is_archived).map((c) => c.id),
    );
    expect(new Set(undone.map((r) => r.contact_id))).toEqual(archived);
  }, 120_000);
});
