import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';
import { perTest } from '../support/per-test.js';

/**
 * Findings of docs/reliability.md "Exit 0 means every person arrived intact" that no other file
 * checks at the service: what a run says it did is what the service holds. The CLI is spawned
 * where what it prints or its exit code is checked; the other runs go through the library in this
 * process, as the command line hands them to it (their exit code is the report's).
 */
const each = perTest();
const fresh = each.dir;
const service = (): Promise<TestService> => each.start();

const run = (svc: TestService, cwd: string, file: string, out: string, more: string[] = []) =>
  runCli(['run', 'generic', file, '--target', svc.service.url, '--state', 'state', '--out', out, ...more], {
    cwd,
    env: { CONTACT_IMPORT_API_KEY: svc.key },
  });

/** `run` above, in this process; its result, its exit code checked 0. */
const runIn = async (
  svc: TestService,
  cwd: string,
  file: string,
  out: string,
  more: { dryRun?: boolean } = {},
) => {
  const result = await runAsCli({
    cwd,
    svc,
    pipeline: 'generic',
    inputs: [file],
    state: 'state',
    out,
    ...more,
  });
  expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
  return result;
};

const people = (count: number, title: (i: number) => string): string =>
  'full_name,email,job_title\n' +
  Array.from({ length: count }, (_, i) => `Person ${i},person.${i}@example.com,${title(i)}\n`).join('');

describe('a rerun whose values changed: its dry run plans, the run says why it searched', () => {
  it('says the searches were for records it knew, and updates each contact in place', async () => {
    const cwd = fresh();
    const svc = await service();
    writeFileSync(
      join(cwd, 'people.csv'),
      people(24, () => 'Engineer'),
    );
    await runIn(svc, cwd, 'people.csv', 'first');
    const before = await svc.client.local.contacts();
    expect(before).toHaveLength(24);

    writeFileSync(
      join(cwd, 'people.csv'),
      people(24, (i) => `Director ${i}`),
    );
    // A dry run first: its page shows what it planned and looked up, nothing sent or loaded, and
    // the service is as it was.
    await runIn(svc, cwd, 'people.csv', 'dry', { dryRun: true });
    expect(readReport(join(cwd, 'dry')).totals).toMatchObject({ created: 0, updated: 24 });
    const page = readFileSync(join(cwd, 'dry', 'report.html'), 'utf8');
    expect(page).toContain('id="lookups-sent"');
    expect(page).not.toMatch(/requests sent|id="requests-sent"/);
    expect((await svc.client.local.contacts()).every((c) => c.job_title === 'Engineer')).toBe(true);

    const second = await run(svc, cwd, 'people.csv', 'second');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(readReport(join(cwd, 'second')).totals).toMatchObject({ created: 0, updated: 24 });
    expect(second.stdout).toMatch(
      /requests were e-mail searches: for 24 records it knew whose values changed/,
    );
    expect(second.stdout).not.toContain('did not know');
    const after = await svc.client.local.contacts();
    expect(after.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    for (const c of after) expect(c.job_title).toBe(`Director ${String(c.full_name).split(' ')[1]}`);
  });
});

describe('an output that cannot be written at the end of a run', () => {
  it('exits 2, not 1, leaves no temporary file; the service holds each person once, and the rerun sends none again', async () => {
    const cwd = fresh();
    const svc = await service();
    writeFileSync(
      join(cwd, 'people.csv'),
      people(5, () => 'Engineer'),
    );
    mkdirSync(join(cwd, 'out', 'report.json'), { recursive: true });
    const broken = await run(svc, cwd, 'people.csv', 'out');
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/report\.json is a folder where a file should be written/);
    expect(readdirSync(cwd, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'))).toEqual(
      [],
    );
    const stored = await svc.client.local.contacts();
    expect(stored).toHaveLength(5);

    await runIn(svc, cwd, 'people.csv', 'again');
    expect(readReport(join(cwd, 'again')).totals).toMatchObject({ created: 0, unchanged: 5 });
    expect((await svc.client.local.contacts()).map((c) => c.id).sort()).toEqual(
      stored.map((c) => c.id).sort(),
    );
  });
});

describe('changes.csv of a run lists list additions', () => {
  it('a new e-mail and phone of a known person are rows of their own, and on the contact', async () => {
    const cwd = fresh();
    const svc = await service();
    const header = 'full_name,email,email_2,phone\n';
    writeFileSync(join(cwd, 'people.csv'), `${header}Ada Lovelace,ada@example.com,,\n`);
    await runIn(svc, cwd, 'people.csv', 'first');
    writeFileSync(
      join(cwd, 'people.csv'),
      `${header}Ada Lovelace,ada@example.com,ada@engines.example,+44 20 7946 0000\n`,
    );
    await runIn(svc, cwd, 'people.csv', 'second');
    expect(readReport(join(cwd, 'second')).totals).toMatchObject({ updated: 1 });
    const rows = parse(readFileSync(join(cwd, 'second', 'changes.csv'), 'utf8'), {
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((r) => [r.field, r.old, r.new])).toEqual([
      ['contact_emails', '', 'ada@engines.example'],
      ['contact_phone_numbers', '', '+44 20 7946 0000'],
    ]);
    const [ada] = await svc.client.local.contacts();
    expect(ada!.contact_emails.map((e) => e.email)).toEqual(['ada@example.com', 'ada@engines.example']);
    expect(ada!.contact_phone_numbers.map((p) => p.phone_number_sanitized)).toEqual(['+442079460000']);
  });
});
