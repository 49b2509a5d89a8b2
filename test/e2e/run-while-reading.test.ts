import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcomes, readReport, runCli, startService, tempDir, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';
import { people } from './generic-csv.js';
import { DETECT_BYTES } from '../../src/readers/limits.js';

/**
 * A live run into an empty target loads while it reads (load/index.ts `reading`, staging.ts
 * `follow`): its first chunks are sent long before the last row is read. What that must not
 * change: a duplicate read after its first record was sent still reaches that contact (an E1
 * update of the merged record), groups named only by late rows exist, the report counts each
 * person once, and a failure to read stops the load with nothing lost. The run reading stdin as
 * it is written is the command line's; the others go through the library in this process (what
 * is checked is what they loaded and reported).
 */
// More than one load batch (chunk size 100 x 4 in flight x 2) of rows before the late ones, and
// more than the bytes a reader of stdin takes in before it hands out a row (DETECT_BYTES).
const COUNT = 1_000;
const LATE = 10;

let svc: TestService;
let dir: string;

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await svc?.close();
});

const HEADER = ['full_name', 'email', 'email_2', 'phone', 'job_title', 'groups', 'custom.Favorite Color'];

/** `count` people (with the header), then a duplicate of each of the first LATE (same e-mail, other case) with more. */
const rowsOf = (count = COUNT): { first: string; late: string } => {
  const rows = people(count).map((p) => [
    `Person Number${p.i}`,
    p.email,
    '',
    p.phone,
    p.title,
    `${p.group};Everyone`,
    p.color,
  ]);
  const late = people(LATE).map((p) => [
    '',
    p.email.toUpperCase(),
    `late.${p.i}@example.org`,
    '',
    '',
    'Latecomers',
    '',
  ]);
  return { first: stringify([HEADER, ...rows]), late: stringify(late) };
};

const writeFile = (name: string, count = COUNT): string => {
  const { first, late } = rowsOf(count);
  const path = join(dir, name);
  writeFileSync(path, first + late);
  return path;
};

/** `run generic <inputs> --target <svc> --state state --out <out>`. */
const run = (
  inputs: string[],
  out: string,
  more: { reread?: boolean; chunkSize?: number; concurrency?: number } = {},
) =>
  runAsCli({
    cwd: dir,
    svc,
    pipeline: 'generic',
    inputs,
    state: 'state',
    out,
    ...more,
  });

/** The same run spawned, its rows on stdin as the test writes them. */
const runFromStdin = (out: string, stdin: PassThrough) =>
  runCli(
    [
      'run',
      'generic',
      '-',
      '--target',
      svc.service.url,
      '--state',
      join(dir, 'state'),
      '--out',
      join(dir, out),
    ],
    { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key }, stdin },
  );

describe('a first run into an empty target loads while it reads', () => {
  it('sends a late duplicate to the contact its first row created, and counts each person once', async () => {
    svc = await startService();
    // The rows come on stdin, the late duplicates only once the service holds contacts: they are
    // read after their first rows were sent, whatever the machine's speed.
    const { first, late } = rowsOf();
    expect(first.length).toBeGreaterThan(DETECT_BYTES);
    const stdin = new PassThrough();
    let ended = false;
    const running = runFromStdin('first', stdin).finally(() => (ended = true));
    stdin.write(first);
    while (!ended && (await svc.client.local.contacts()).length === 0) await sleep(20);
    stdin.end(late);
    const result = await running;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = readReport(join(dir, 'first'));
    expect(report.totals).toMatchObject({
      read: COUNT + LATE,
      created: COUNT,
      duplicates: LATE,
      updated: 0,
      failed: 0,
      pending: 0,
    });
    expect(outcomes(report)).toBe(report.totals.read);
    expect(report.groups).toEqual({ created: 4, existing: 0 });
    // The first rows were sent before the last ones were read: their contacts got the rest by E1.
    expect(report.requests.byEndpoint['PUT /v1/contacts/']?.sent ?? 0).toBeGreaterThan(0);

    const contacts = await svc.client.local.contacts();
    expect(contacts).toHaveLength(COUNT);
    const groups = new Map((await svc.client.local.groups()).map((g) => [g.id, g.name]));
    const byEmail = new Map(contacts.flatMap((c) => c.contact_emails.map((e) => [e.email, c] as const)));
    for (const p of people(LATE)) {
      const stored = byEmail.get(p.email.toLowerCase())!;
      expect(stored.contact_emails.map((e) => e.email)).toEqual([
        p.email.toLowerCase(),
        `late.${p.i}@example.org`,
      ]);
      expect(stored.groups_contacts.map((g) => groups.get(g.group_id)).sort()).toEqual(
        [p.group, 'Everyone', 'Latecomers'].sort(),
      );
      // First non-empty value wins: the late row's empty cells change nothing.
      expect(stored.job_title).toBe(p.title);
    }
    const untouched = byEmail.get(people(LATE + 1)[LATE]!.email.toLowerCase())!;
    expect(untouched.contact_emails).toHaveLength(1);

    // The ledger holds the merged records: the same file again (read again) sends no contact.
    const again = await run([writeFile('people.csv')], 'again', { reread: true });
    expect(again.report.exitCode).toBe(0);
    const second = readReport(join(dir, 'again'));
    expect(second.totals).toMatchObject({ unchanged: COUNT, created: 0, updated: 0 });
    expect(second.requests.byEndpoint['POST /v1/contacts/']).toBeUndefined();
    expect(second.requests.byEndpoint['PUT /v1/contacts/']).toBeUndefined();
  }, 120_000);

  it('stops loading when an input cannot be read, and the same inputs fixed load everyone once', async () => {
    svc = await startService();
    // Chunks of 10, 2 in flight: 200 rows still span several load batches before the failure.
    const small = { chunkSize: 10, concurrency: 2 };
    const count = 200;
    const file = writeFile('people.csv', count);
    const broken = join(dir, 'more.csv');
    mkdirSync(broken);
    const result = await run([file, broken], 'broken', small);
    expect(result.report.exitCode).toBe(2);
    expect(result.report.error?.message).toContain('more.csv is a directory');
    const report = readReport(join(dir, 'broken'));
    expect(report.status).toBe('aborted');
    expect(report.totals.read).toBe(count + LATE);
    expect(outcomes(report)).toBe(report.totals.read);
    const sentBefore = report.totals.created;
    expect(await svc.client.local.contacts()).toHaveLength(sentBefore);

    const fixed = await run([file], 'fixed', small);
    expect(fixed.report.error).toBeUndefined();
    expect(fixed.report.exitCode).toBe(0);
    const contacts = await svc.client.local.contacts();
    expect(contacts).toHaveLength(count);
    expect(new Set(contacts.flatMap((c) => c.contact_emails.map((e) => e.email))).size).toBe(count + LATE);
  }, 120_000);
});
