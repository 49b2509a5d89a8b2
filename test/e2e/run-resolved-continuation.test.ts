import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { LEDGER_FILE } from '../../src/state/index.js';
import { CONTINUATION_SAMPLE } from '../../src/load/continuation.js';
import { people, writeGenericCsv, type Person } from './generic-csv.js';
import { CLI, readReport, runCli, runHooked, type TestService } from './harness.js';

/**
 * Issue 15.1 into a target that holds contacts: a run keeps in its ledger what its searches
 * decided for records it has not sent yet (create, or update contact X), so the same command after
 * Ctrl-C or kill -9 sends those records as decided, with no second search. Requests are counted at
 * the service (LocalService.requestCounts). Records the stopped run never got to resolve are
 * searched, one exact search each: the target holds contacts, nothing else can tell.
 */
const each = perTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHUNK = 100;
const SEARCH = 'GET /v1/search/contacts';
const WRITES = ['POST /v1/contacts/', 'PUT /v1/contacts/'];

const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
const since = (before: Record<string, number>, after: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([route, n]) => [route, n - (before[route] ?? 0)]));

interface Layout {
  /** Contacts another ledger loaded first: people 0 .. foreign - 1. */
  foreign: number;
  /** The file: `rows` people from foreign - overlap on, each with a changed job title. */
  rows: number;
  overlap: number;
}

/** The target holding `foreign` people from another ledger, and the file that overlaps them. */
const setUp = async (svc: TestService, dir: string, layout: Layout) => {
  const env = { CONTACT_IMPORT_API_KEY: svc.key };
  const foreign = people(layout.foreign);
  const other = ['run', 'generic', writeGenericCsv(dir, 'other.csv', foreign), '--target', svc.service.url];
  const loaded = await runCli([...other, '--state', join(dir, 'other-state'), '--out', join(dir, 'other')], {
    cwd: dir,
    env,
  });
  expect(loaded.code, loaded.stderr).toBe(0);
  const rows = people(layout.rows, layout.foreign - layout.overlap).map((p) => ({
    ...p,
    title: `Lead ${p.title}`,
  }));
  const file = writeGenericCsv(dir, 'mine.csv', rows);
  const state = join(dir, 'state');
  const args = ['run', 'generic', file, '--target', svc.service.url, '--state', state];
  args.push('--chunk-size', String(CHUNK));
  const everyone: Person[] = [...people(layout.foreign - layout.overlap), ...rows];
  return { env, rows, file, state, args, everyone };
};

/** The first run, stopped once about 40 % of its write requests went out. */
const stopAtFortyPercent = async (
  svc: TestService,
  dir: string,
  run: Awaited<ReturnType<typeof setUp>>,
  how: 'Ctrl-C' | 'kill -9',
): Promise<void> => {
  const chunks = Math.ceil(run.rows.length / CHUNK);
  if (how === 'kill -9') {
    // Deterministic: the updates of the overlap go first, then the creates; killed mid-chunk (a
    // create recorded, not sent) at 40 % of the chunks.
    const overlapChunks = Math.ceil((run.everyone.length - run.rows.length) / CHUNK);
    const at = Math.max(1, Math.round(chunks * 0.4) - overlapChunks);
    const killed = await runHooked(
      {
        run: {
          pipeline: 'generic',
          inputs: [run.file],
          target: svc.service.url,
          stateDir: run.state,
          outDir: join(dir, 'first'),
        },
        killAt: `create-recorded:${at}`,
      },
      { cwd: dir, env: run.env },
    );
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    return;
  }
  const before = svc.service.requestCounts();
  const writes = () => {
    const now = since(before, svc.service.requestCounts());
    return WRITES.reduce((n, route) => n + (now[route] ?? 0), 0);
  };
  const env = { ...process.env, ...run.env };
  const child = spawn(process.execPath, [CLI, ...run.args, '--out', join(dir, 'first')], { cwd: dir, env });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  while (writes() < chunks * 0.4 && Date.now() < deadline) await sleep(20);
  child.kill('SIGINT');
  expect(await exited).toBe(130);
};

/**
 * What the stopped run left in its ledger: contacts it knows, creates pending (chunks, records),
 * and the records resolved but neither known nor pending: what the continuation must not search.
 */
const leftInLedger = (state: string) => {
  const db = new Database(join(state, LEDGER_FILE), { readonly: true });
  try {
    const known = new Set(db.prepare('SELECT key FROM contacts').pluck().all() as string[]);
    const pending = (db.prepare('SELECT keys FROM pending_creates').pluck().all() as string[]).map(
      (keys) => JSON.parse(keys) as string[],
    );
    const pendingKeys = new Set(pending.flat());
    const resolutions = db.prepare('SELECT key, contact_id FROM resolutions').raw().all() as [
      string,
      string | null,
    ][];
    const resolved = resolutions.filter(([key]) => !known.has(key) && !pendingKeys.has(key));
    return {
      known: known.size,
      pendingChunks: pending.length,
      pendingRecords: pendingKeys.size,
      resolved: resolved.length,
      resolvedCreates: resolved.filter(([, id]) => id === null).length,
    };
  } finally {
    db.close();
  }
};

const LAYOUT: Layout = { foreign: 5000, rows: 10_000, overlap: 2500 };

describe.each(['Ctrl-C', 'kill -9'] as const)(
  'a continuation after %s at about 40 %% into a target another ledger loaded',
  (how) => {
    it(
      'sends what was resolved as decided, searches only what no run resolved, and stores every person once',
      { timeout: 280_000 },
      async () => {
        const dir = each.dir();
        const svc = await each.start();
        const run = await setUp(svc, dir, LAYOUT);
        await stopAtFortyPercent(svc, dir, run, how);
        const left = leftInLedger(run.state);
        expect(left.known).toBeGreaterThan(0);
        expect(left.known).toBeLessThan(LAYOUT.rows);
        // The stopped run resolved ahead of its sends: what it decided is in the ledger.
        expect(left.resolved).toBeGreaterThan(2 * CHUNK);
        if (how === 'Ctrl-C') expect(left.pendingChunks).toBe(0);
        const unresolved = LAYOUT.rows - left.known - left.pendingRecords - left.resolved;

        const before = svc.service.requestCounts();
        const next = await runCli([...run.args, '--out', join(dir, 'next')], {
          cwd: dir,
          env: run.env,
        });
        expect(next.code, next.stderr).toBe(0);
        const sent = since(before, svc.service.requestCounts());
        const chunksLeft = Math.ceil((LAYOUT.rows - left.known) / CHUNK);
        // No search for a record a run resolved: the probe, the check of the creates, the records
        // of the pending creates (issue 15.4), and the records no run resolved.
        expect(sent[SEARCH] ?? 0, JSON.stringify({ sent, left })).toBeLessThanOrEqual(
          1 + CONTINUATION_SAMPLE + left.pendingRecords + unresolved,
        );
        // The bound (chunks left + pending + 20), plus the searches no run could spare.
        expect(total(sent), JSON.stringify({ sent, left })).toBeLessThanOrEqual(
          chunksLeft + left.pendingChunks + left.pendingRecords + unresolved + 20,
        );
        const report = readReport(join(dir, 'next'));
        expect(report.continues?.loaded).toBeGreaterThanOrEqual(left.known);
        expect(report.totals.created + report.totals.updated).toBe(LAYOUT.rows - report.continues!.loaded);
        // Every person once, the overlap updated (its new job title), nothing doubled.
        await expectExactlyLoaded(svc.client, run.everyone);
        expectTruthfulReport(report, LAYOUT.rows, LAYOUT.rows);
        expect(report.status).toBe('completed');
        // Done: nothing is kept for a continuation any more.
        expect(leftInLedger(run.state).resolved).toBe(0);
      },
    );
  },
);

describe('a continuation into a target that gained people it had resolved to create', () => {
  it(
    'checks a sample, searches those records again, says why, and doubles nobody',
    { timeout: 200_000 },
    async () => {
      const dir = each.dir();
      const svc = await each.start();
      const layout: Layout = { foreign: 1000, rows: 4000, overlap: 500 };
      const run = await setUp(svc, dir, layout);
      await stopAtFortyPercent(svc, dir, run, 'kill -9');
      const left = leftInLedger(run.state);
      expect(left.resolvedCreates).toBeGreaterThan(CHUNK);
      // Someone else stores every person the run resolved to create and has not sent yet (not those
      // of its pending creates: a settled create takes a contact found by its e-mail as its own,
      // docs/reliability.md).
      const db = new Database(join(run.state, LEDGER_FILE), { readonly: true });
      const pendingKeys = new Set(
        (db.prepare('SELECT keys FROM pending_creates').pluck().all() as string[]).flatMap(
          (keys) => JSON.parse(keys) as string[],
        ),
      );
      const rows = db
        .prepare(
          `SELECT key, email FROM resolutions r WHERE contact_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.key = r.key)`,
        )
        .raw()
        .all() as [string, string][];
      db.close();
      const emails = rows.filter(([key]) => !pendingKeys.has(key)).map(([, email]) => email);
      const byEmail = new Map(run.rows.map((p) => [p.email.toLowerCase(), p]));
      // Not those a create in flight at the kill stored already.
      const stored = new Set(
        (await svc.client.local.contacts()).flatMap((c) => c.contact_emails.map((e) => e.email)),
      );
      const gained = emails.filter((e) => !stored.has(e)).map((e) => byEmail.get(e)!);
      expect(gained.length).toBeGreaterThan(CHUNK);
      for (let at = 0; at < gained.length; at += 100) {
        await svc.client.createContacts(
          gained.slice(at, at + 100).map((p) => ({
            full_name: `Person Number${p.i}`,
            contact_emails: [{ email: p.email.toLowerCase() }],
          })),
        );
      }

      const next = await runCli([...run.args, '--out', join(dir, 'next')], {
        cwd: dir,
        env: run.env,
      });
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout + next.stderr).toMatch(
        /searching after all: \d+ of \d+ records that run \S+ resolved to create and has not sent yet are already on the target/,
      );
      const report = readReport(join(dir, 'next'));
      expect(report.totals.updated).toBeGreaterThanOrEqual(gained.length);
      await expectExactlyLoaded(svc.client, run.everyone);
      expectTruthfulReport(report, layout.rows, layout.rows);
    },
  );
});
