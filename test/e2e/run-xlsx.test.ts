import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { LocalContact } from '../../src/core/schemas/local.js';
import { readIssues, readReport, runCli, startService, tempDir, type TestService } from './harness.js';
import { refusalOf, runAsCli } from './cli-in-process.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/xlsx');
const WORKBOOK = join(FIXTURES, 'people.xlsx');

const dirs: string[] = [];
const services: TestService[] = [];
const freshDir = (): string => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};
const freshService = async (): Promise<TestService> => {
  const svc = await startService();
  services.push(svc);
  return svc;
};
/** A folder and a local service of its own, both gone after the test. */
const freshRun = async () => ({ dir: freshDir(), svc: await freshService() });
afterEach(async () => {
  for (const svc of services.splice(0)) await svc.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * `run generic <input> --target <svc> --state <dir>/state --out <dir>/<out>` in this process: the
 * workbook's first run is spawned, to see what the command line itself says of it; the others
 * check what the run read and loaded, or the one line it stops with (refusalOf).
 */
const runIn = (
  dir: string,
  svc: TestService,
  input: string,
  out: string,
  settings: { sheet?: string; maxRejects?: string } = {},
) => runAsCli({ cwd: dir, svc, pipeline: 'generic', inputs: [input], state: 'state', out, ...settings });

const run = (dir: string, svc: TestService, args: string[]) =>
  runCli(['run', 'generic', ...args, '--target', svc.service.url, '--state', join(dir, 'state')], {
    cwd: dir,
    env: { CONTACT_IMPORT_API_KEY: svc.key },
  });

/** What a contact holds, without what the service made up (ids, times): comparable across services. */
type Held = Record<string, unknown> & Pick<LocalContact, 'contact_phone_numbers'>;

const held = (contact: LocalContact): Held => {
  const {
    id: _id,
    created_at: _created,
    updated_at: _updated,
    groups_contacts,
    custom_fields,
    ...rest
  } = contact;
  return {
    ...rest,
    groups: groups_contacts.map((g) => g.name).sort(),
    custom_fields: custom_fields.map((f) => [f.name, f.text_value]),
  };
};

const loaded = async (svc: TestService) =>
  (await svc.client.local.contacts())
    .map(held)
    .sort((a, b) => String(a['full_name']).localeCompare(String(b['full_name'])));

/** The exit-2 contract: one line on stderr, no stack trace. */
const expectOneLine = (stderr: string): string => {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
};

describe('contact-import run with an Excel workbook', () => {
  it('loads the same people from the workbook as from its CSV export', async () => {
    const dir = freshDir();
    const fromWorkbook = await freshService();
    const fromCsv = await freshService();

    const workbookRun = await run(dir, fromWorkbook, [WORKBOOK, '--out', join(dir, 'xlsx')]);
    expect(workbookRun.stderr).toBe('');
    expect(workbookRun.code).toBe(0);
    const report = readReport(join(dir, 'xlsx'));
    expect(report.inputs).toEqual([
      {
        path: WORKBOOK,
        format: 'xlsx',
        encoding: 'utf-8',
        delimiter: null,
        rows: 5,
        sheet: 'People',
        unusedColumns: [],
        readWhole: true,
        pipeline: 'generic',
      },
    ]);
    expect(report.totals).toMatchObject({ read: 5, created: 5, rejected: 0, failed: 0 });

    // The CSV export keeps the sheet's empty row as a line of commas: one reject there.
    const csvRun = await runIn(dir, fromCsv, join(FIXTURES, 'people.csv'), 'csv', { maxRejects: '1' });
    expect(csvRun.report.exitCode).toBe(0);
    expect(readReport(join(dir, 'csv')).totals).toMatchObject({ read: 6, created: 5, rejected: 1 });

    const workbookPeople = await loaded(fromWorkbook);
    expect(workbookPeople).toHaveLength(5);
    expect(workbookPeople).toEqual(await loaded(fromCsv));

    const grace = workbookPeople.find((c) => c['full_name'] === 'Grace Hopper')!;
    expect(grace.contact_phone_numbers.map((p) => p.phone_number_sanitized)).toEqual(['+12025550143']);
    expect(grace['birthday']).toBe('1906-12-09');
    expect(grace['description']).toBe('Works at US Navy');
    const ada = workbookPeople.find((c) => c['full_name'] === 'Ada Lovelace')!;
    expect(ada.contact_phone_numbers.map((p) => p.phone_number)).toEqual(['+44 20 7946 0000']);
  });

  it('reads the sheet --sheet names', async () => {
    const { dir, svc } = await freshRun();
    const result = await runIn(dir, svc, WORKBOOK, 'out', { sheet: 'Other people' });
    expect(result.report.exitCode).toBe(0);
    expect(readReport(join(dir, 'out')).inputs[0]).toMatchObject({ sheet: 'Other people', rows: 2 });
    expect((await loaded(svc)).map((c) => c['full_name'])).toEqual(['Linus Example', 'Radia Perlman']);
  });

  it("writes a workbook's rejects as rejected.csv with the sheet's header", async () => {
    const { dir, svc } = await freshRun();
    const result = await runIn(dir, svc, WORKBOOK, 'out', { sheet: 'Stray' });
    expect(result.report.exitCode).toBe(1);
    const rejected = readFileSync(join(dir, 'out', 'rejected.csv'), 'utf8').split('\n');
    expect(rejected[0]).toMatch(/^full_name,email\b/);
    expect(rejected[1]).toMatch(/^Stray Person,stray@example\.com,,a note right of the header\b/);
    expect(readIssues(join(dir, 'out'))).toMatchObject([{ row: '1', code: 'row_ragged', severity: 'error' }]);
    expect((await loaded(svc)).map((c) => c['full_name'])).toEqual(['Kept Person']);
  });

  it('refuses an unknown --sheet in one line that lists the sheets (exit 2)', async () => {
    const { dir, svc } = await freshRun();
    const refused = await refusalOf(runIn(dir, svc, WORKBOOK, 'out', { sheet: 'Contacts' }));
    expect(refused?.message).toContain(
      `has no sheet named "Contacts"; its sheets are "People", "Other people"`,
    );
  });

  it('refuses --sheet when no input is a workbook (exit 2)', async () => {
    const { dir, svc } = await freshRun();
    const refused = await refusalOf(
      runIn(dir, svc, join(FIXTURES, 'people.csv'), 'out', { sheet: 'People' }),
    );
    expect(refused?.message).toContain('no input is an Excel workbook (.xlsx)');
  });
});

describe('contact-import with spreadsheets it does not read as given', () => {
  it.each([
    ['people.xls', 'people.xls', 'people.xls is an old Excel 97-2003 workbook: save it as .xlsx or CSV.'],
    [
      'people.xlsx',
      'people.csv',
      'people.csv is an Excel workbook (.xlsx), not CSV text: rename it to .xlsx.',
    ],
    [
      'people.xls',
      'people.csv',
      'people.csv is an old Excel 97-2003 workbook (.xls), not CSV text: save it as .xlsx or CSV.',
    ],
  ])('%s named %s: one line saying what it is and what to do (exit 2)', async (fixture, name, message) => {
    const dir = freshDir();
    copyFileSync(join(FIXTURES, fixture), join(dir, name));
    // The command line's one line and exit 2 once; the other names through the library, whose
    // error that line prints.
    if (fixture === 'people.xls' && name === 'people.xls') {
      const result = await runCli(['validate', 'generic', name], { cwd: dir });
      expect(result.code).toBe(2);
      expect(expectOneLine(result.stderr)).toContain(message);
    } else {
      const refused = await refusalOf(
        runAsCli({ cwd: dir, pipeline: 'generic', inputs: [name], out: 'out', dryRun: true }),
      );
      expect(refused?.message).toContain(message);
    }
  });
});
