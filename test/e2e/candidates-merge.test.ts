import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { outcomes, readReport, runCli, type TestService } from './harness.js';
import { runAsCli, stopOf, undoAsCli } from './cli-in-process.js';
import { perTest } from '../support/per-test.js';

const t = perTest();

const HEADER = ['first_name', 'last_name', 'email', 'phone', 'company', 'birthday', 'legacy_location'];

/** Two exports of one organisation: three people in both under other e-mails, one in each alone. */
const CRM = [
  [
    'Robert',
    'Nakamura',
    'robert.nakamura@acme.com',
    '+14155550101',
    'Acme Inc',
    '1984-03-02',
    'San Francisco',
  ],
  ['Alice', 'Zwolinski', 'alice.z@globex.com', '+14155550102', 'Globex', '1979-11-20', 'Oakland'],
  ['Margaret', 'Okonkwo', 'margaret@initech.com', '+14155550103', 'Initech', '1990-05-05', 'Berkeley'],
  ['Carol', 'Brennan', 'carol@umbrella.com', '+14155550104', 'Umbrella', '1970-01-09', 'Fresno'],
];
const BOOK = [
  ['Bob', 'Nakamura', 'bnakamura84@gmail.com', '(415) 555-0101', 'Acme', '1984-03-02', 'San Francisco'],
  ['Alice', 'Zwolinski', 'azwolinski@yahoo.com', '415-555-0102', 'Globex Corp', '1979-11-20', ''],
  ['Peggy', 'Okonkwo', 'peggy.okonkwo@gmail.com', '415 555 0103', 'Initech', '1990-05-05', 'Berkeley'],
  ['Dave', 'Smith', 'dave@smith.org', '+14155550199', '', '', ''],
];

/** The two exports, by their full paths: candidates.csv names each input as the run was given it. */
const writeInputs = (dir: string) => {
  writeFileSync(join(dir, 'crm.csv'), stringify([HEADER, ...CRM]));
  writeFileSync(join(dir, 'book.csv'), stringify([HEADER, ...BOOK]));
  return [join(dir, 'crm.csv'), join(dir, 'book.csv')];
};

/**
 * `run --pipeline generic <inputs> --target <svc> --state state --region US --out <out>` in this
 * process, as the command line hands it to the library: one run is spawned, for its summary; the
 * others check what the runs wrote and loaded, or the error the command prints as its one line.
 */
const runIn = (
  svc: TestService,
  dir: string,
  inputs: string[],
  out: string,
  more: { dryRun?: boolean; mergeCandidates?: string } = {},
) => runAsCli({ cwd: dir, svc, pipeline: 'generic', inputs, state: 'state', region: 'US', out, ...more });

/** `undo <run> --target <svc> --state state --out undo` in this process. */
const undoIn = (svc: TestService, dir: string, run: string) =>
  undoAsCli({ cwd: dir, svc, run, state: 'state', out: 'undo' });

const cli = (svc: TestService, dir: string, args: string[]) =>
  runCli(
    [
      ...args,
      '--target',
      svc.service.url,
      '--state',
      'state',
      ...(args[0] === 'run' ? ['--region', 'US'] : []),
    ],
    {
      cwd: dir,
      env: { CONTACT_IMPORT_API_KEY: svc.key },
    },
  );

const csv = (path: string) =>
  parse(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

/** The live contacts' e-mails, each contact's sorted and joined: one string per contact. */
const liveEmails = async (svc: TestService): Promise<string[]> =>
  (await svc.client.local.contacts())
    .filter((c) => !c.is_archived)
    .map((c) =>
      (c.contact_emails ?? [])
        .map((e) => e.email)
        .sort()
        .join(' '),
    )
    .sort();

describe('--merge-candidates', () => {
  it('a default run creates every new e-mail; a reviewed candidates.csv merges exactly its merge pairs', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const inputs = writeInputs(dir);
    // A dry run writes the candidates for a person to review; nothing is merged on a guess.
    const dry = await runIn(svc, dir, inputs, 'dry', { dryRun: true });
    expect(dry.report.exitCode, JSON.stringify(dry.report.error)).toBe(0);
    expect(readReport(join(dir, 'dry')).totals).toMatchObject({ read: 8, created: 8, merged: 0 });
    const pairs = csv(join(dir, 'dry', 'candidates.csv'));
    const at = (aRow: string) =>
      pairs.findIndex(
        (p) => p.a_file === inputs[0] && p.a_row === aRow && p.b_file === inputs[1] && p.b_row === aRow,
      );
    const robert = at('1');
    const alice = at('2');
    expect(robert).toBeGreaterThanOrEqual(0);
    expect(alice).toBeGreaterThanOrEqual(0);

    // Robert and Bob: merge; the two Alices: keep; any other pair left undecided.
    const reviewed = pairs.map((p, i) => ({
      ...p,
      decision: i === robert ? 'merge' : i === alice ? 'keep' : '',
    }));
    writeFileSync(join(dir, 'reviewed.csv'), stringify(reviewed, { header: true }));
    const run = await cli(svc, dir, [
      'run',
      ...inputs,
      '--pipeline',
      'generic',
      '--merge-candidates',
      'reviewed.csv',
      '--out',
      'run',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = readReport(join(dir, 'run'));
    expect(report.totals).toMatchObject({ read: 8, merged: 1, created: 7 });
    expect(outcomes(report)).toBe(report.totals.read);
    expect(await liveEmails(svc)).toContain('bnakamura84@gmail.com robert.nakamura@acme.com');
    expect(await liveEmails(svc)).toContain('alice.z@globex.com');
    expect(await liveEmails(svc)).toContain('azwolinski@yahoo.com');
    expect(await liveEmails(svc)).toHaveLength(7);
    // The merged contact took Bob's values where Robert's were empty, and kept Robert's own.
    const merged = (await svc.client.local.contacts()).find((c) =>
      c.contact_emails?.some((e) => e.email === 'bnakamura84@gmail.com'),
    )!;
    expect(merged.first_name).toBe('Robert');

    const rows = csv(join(dir, 'run', 'outcomes.csv'));
    expect(rows.filter((r) => r.outcome === 'merged')).toEqual([
      expect.objectContaining({ file: inputs[1], row: '1', identity: 'email:bnakamura84@gmail.com' }),
    ]);
    expect(csv(join(dir, 'run', 'changes.csv'))).toContainEqual(
      expect.objectContaining({ file: inputs[1], row: '1', field: 'merged_into', new: `${inputs[0]} row 1` }),
    );
    expect(run.stdout).toContain('merged 1');
  });

  it('likely merges the band; undo takes the merges back', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const inputs = writeInputs(dir);
    const run = await runIn(svc, dir, inputs, 'run', { mergeCandidates: 'likely' });
    expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
    const report = readReport(join(dir, 'run'));
    const likely = csv(join(dir, 'run', 'candidates.csv')).filter((p) => p.band === 'likely');
    // Every likely pair here joins two records of one person, each person in one pair at most.
    expect(likely.length).toBeGreaterThanOrEqual(2);
    expect(report.totals).toMatchObject({ read: 8, merged: likely.length, created: 8 - likely.length });
    const emails = await liveEmails(svc);
    expect(emails).toHaveLength(8 - likely.length);
    for (const pair of likely) expect(emails).toContain([pair.a_email, pair.b_email].sort().join(' '));

    const undo = await undoIn(svc, dir, 'run');
    expect(undo.report.exitCode, JSON.stringify(undo.report)).toBe(0);
    expect(await liveEmails(svc)).toEqual([]);
  });

  it("a reviewed file that is not this run's stops before anything is sent, naming file, row and field", async () => {
    const svc = await t.start();
    const dir = t.dir();
    const inputs = writeInputs(dir);
    const header =
      'band,score,a_file,a_row,b_file,b_row,b_contact_id,a_name,b_name,a_email,b_email,reasons,cluster,decision\n';
    const [crm, book] = inputs as [string, string];
    const cases: [string, RegExp][] = [
      [`band,score,a_file\nlikely,1,${crm}\n`, /wrong\.csv: row 0 \(header\): field a_row is missing/],
      [
        `${header}likely,0.999,${crm},1,${book},4,,,,,,,,merge\n`,
        /wrong\.csv: row 1: field b_row: \S*crm\.csv row 1 and \S*book\.csv row 4 are not a pair/,
      ],
    ];
    // The error the command prints with exit 2: thrown before reading, or the report's once read.
    for (const [text, message] of cases) {
      writeFileSync(join(dir, 'wrong.csv'), text);
      const run = runIn(svc, dir, inputs, 'run', { mergeCandidates: join(dir, 'wrong.csv') });
      expect(await stopOf(run)).toMatchObject({
        code: 'merge_candidates_invalid',
        message: expect.stringMatching(message),
      });
    }
    expect(await svc.client.local.contacts()).toEqual([]);
  });
});

describe('--merge-candidates against the target', () => {
  it('a record taken for a target contact updates it instead of creating one; undo puts its old values back', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const [robert] = await svc.client.createContacts([
      {
        first_name: 'Robert',
        last_name: 'Nakamura',
        company: 'Acme Inc',
        job_title: 'Engineer',
        birthday: '1984-03-02',
        contact_emails: [{ email: 'robert.nakamura@acme.com' }],
      },
    ]);
    writeFileSync(join(dir, 'book.csv'), stringify([HEADER, BOOK[0]!, BOOK[3]!]));
    const run = await runIn(svc, dir, ['book.csv'], 'run', { mergeCandidates: 'likely' });
    expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
    expect(readReport(join(dir, 'run')).totals).toMatchObject({ read: 2, merged: 1, created: 1 });
    const pairs = csv(join(dir, 'run', 'candidates.csv'));
    expect(pairs).toContainEqual(
      expect.objectContaining({
        band: 'likely',
        a_file: join(dir, 'book.csv'),
        a_row: '1',
        b_row: '',
        b_contact_id: robert!.id,
      }),
    );
    expect(csv(join(dir, 'run', 'outcomes.csv'))).toContainEqual(
      expect.objectContaining({ row: '1', outcome: 'merged', contact_id: robert!.id }),
    );
    expect(csv(join(dir, 'run', 'changes.csv'))).toContainEqual(
      expect.objectContaining({ row: '1', contact_id: robert!.id, field: 'merged_into' }),
    );
    const merged = (await svc.client.local.contacts()).find((c) => c.id === robert!.id)!;
    expect(merged.first_name).toBe('Robert');
    expect(merged.legacy_location).toBe('San Francisco');
    expect(merged.contact_emails?.map((e) => e.email)).toContain('bnakamura84@gmail.com');
    // One name search per record to create: Bob and Dave.
    expect(svc.service.requestCounts()['GET /v1/contacts/search']).toBe(2);

    const undo = await undoIn(svc, dir, 'run');
    expect([0, 1]).toContain(undo.report.exitCode);
    const after = (await svc.client.local.contacts()).find((c) => c.id === robert!.id)!;
    expect(after.is_archived).toBe(false);
    expect(after.legacy_location ?? null).toBeNull();
    expect(await liveEmails(svc)).not.toContain('dave@smith.org');
  });
});
