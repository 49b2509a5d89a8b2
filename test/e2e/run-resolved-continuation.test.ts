import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { keptKill } from '../support/kept-kill.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { LEDGER_FILE } from '../../src/state/index.js';
import { people, writeGenericCsv, type Person } from './generic-csv.js';
import { loadInProcess, readReport, runHooked, type TestService } from './harness.js';

/**
 * A continuation into a target that holds contacts: a run keeps in its ledger what its searches
 * decided for records it has not sent yet (create, or update contact X), so the same command after
 * kill -9 updates the contacts found with no second search. Records resolved to create are
 * searched again (someone may have stored them since, and the target's answers carry no e-mails
 * to compare a listing with), as are those the stopped run never got to resolve. Requests are
 * counted at the service (LocalService.requestCounts). The killed run is a process of its own
 * (test/support/hooked-run.mjs); the continuations run in this one, their report, requests and
 * what the service holds being what is checked (run-continuation.test.ts spawns the command's).
 */
const each = perTest();

// Small chunks keep the runs short: what is checked depends on how many chunks and look-ahead
// batches (chunk x concurrency x 2 records) the file spans, not on how many records they hold.
const CHUNK = 5;
const SEARCH = 'GET /v1/search/contacts';
/** The name search (E3) that looks for candidates among the target's contacts. */
const NAME_SEARCH = 'GET /v1/contacts/search';

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
  const loaded = await loadInProcess(svc, writeGenericCsv(dir, 'other.csv', foreign), {
    stateDir: join(dir, 'other-state'),
    outDir: join(dir, 'other'),
  });
  expect(loaded.report.exitCode, JSON.stringify(loaded.report.error)).toBe(0);
  const rows = people(layout.rows, layout.foreign - layout.overlap).map((p) => ({
    ...p,
    title: `Lead ${p.title}`,
  }));
  const file = writeGenericCsv(dir, 'mine.csv', rows);
  const state = join(dir, 'state');
  const everyone: Person[] = [...people(layout.foreign - layout.overlap), ...rows];
  return { env, rows, file, state, everyone };
};

/**
 * The same run again, into `next/`. Candidates are not what these runs are about
 * (test/e2e/candidates-target.test.ts is): off, so the counts are those of resolution and loading
 * alone.
 */
const continueRun = async (svc: TestService, dir: string, run: { file: string; state: string }) => {
  const { report } = await loadInProcess(
    svc,
    run.file,
    { stateDir: run.state, outDir: join(dir, 'next') },
    { chunkSize: CHUNK, candidates: 'off' },
  );
  expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
};

/** The first run, SIGKILLed as it hands the create chunk at about 40 % of its chunks to the network. */
const killAtFortyPercent = async (svc: TestService, dir: string, run: Awaited<ReturnType<typeof setUp>>) => {
  const chunks = Math.ceil(run.rows.length / CHUNK);
  // Deterministic: the updates of the overlap go first, then the creates.
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
        chunkSize: CHUNK,
        candidates: 'off',
      },
      killAt: `create-recorded:${at}`,
    },
    { cwd: dir, env: run.env },
  );
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
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

/** 20 chunks of the file (2.5 look-ahead batches), the first 5 its overlap with the other ledger's contacts. */
const LAYOUT: Layout = { foreign: 50, rows: 100, overlap: 25 };

/**
 * A service another ledger loaded, the file's first run SIGKILLed at about 40 %, and what its
 * ledger kept: killed once for all the tests here, each getting the service and the state back as
 * the kill left them.
 */
const stopped = keptKill(
  async (svc, dir) => {
    const run = await setUp(svc, dir, LAYOUT);
    await killAtFortyPercent(svc, dir, run);
    return { run, left: leftInLedger(run.state) };
  },
  { kept: ['state'], dropped: ['next'] },
);

const stoppedRun = async () => {
  const { dir, svc, made } = await stopped.again(each.start);
  return { dir, svc, ...made };
};

describe('a continuation after kill -9 at about 40 % into a target another ledger loaded', () => {
  it(
    'sends what was resolved as decided, searches only what no run resolved, and stores every person once',
    { timeout: 200_000 },
    async () => {
      const { dir, svc, run, left } = await stoppedRun();
      expect(left.known).toBeGreaterThan(0);
      expect(left.known).toBeLessThan(LAYOUT.rows);
      // The stopped run resolved ahead of its sends: what it decided is in the ledger.
      expect(left.resolvedCreates).toBeGreaterThan(CHUNK);
      const unresolved = LAYOUT.rows - left.known - left.pendingRecords - left.resolved;

      const before = svc.service.requestCounts();
      await continueRun(svc, dir, run);
      const sent = since(before, svc.service.requestCounts());
      // No search for a record resolved to update: the probe, the records resolved to create (a
      // contact stored since may hold one), the records no run resolved, and the records of the
      // creates in flight at the kill (one that never reached the target is not resent blindly:
      // someone may have stored its people since, and no listing here tells).
      const searched = 1 + left.resolvedCreates + unresolved + left.pendingRecords;
      expect(sent[SEARCH] ?? 0, JSON.stringify({ sent, left })).toBeLessThanOrEqual(searched);
      // Candidates against the target: one name search per record to create, no more.
      const nameSearches = sent[NAME_SEARCH] ?? 0;
      expect(nameSearches, JSON.stringify({ sent, left })).toBeLessThanOrEqual(
        left.resolvedCreates + unresolved,
      );
      const chunksLeft = Math.ceil((LAYOUT.rows - left.known) / CHUNK);
      expect(total(sent), JSON.stringify({ sent, left })).toBeLessThanOrEqual(
        chunksLeft + left.pendingChunks + searched + nameSearches + 20,
      );
      const report = readReport(join(dir, 'next'));
      expect(report.continues?.loaded).toBeGreaterThanOrEqual(left.known);
      // Every person once, the overlap updated (its new job title), nothing doubled.
      await expectExactlyLoaded(svc.client, run.everyone);
      expectTruthfulReport(report, LAYOUT.rows, LAYOUT.rows);
      expect(report.status).toBe('completed');
      // Done: nothing is kept for a continuation any more.
      expect(leftInLedger(run.state).resolved).toBe(0);
    },
  );
});

describe.each([0.005, 0.1, 1])(
  'a continuation after another client stored %s of the people resolved to create and not sent',
  (fraction) => {
    // The timeouts are hang guards for a busy two-core machine, not speed checks.
    it(
      'searches the records resolved to create again, and doubles nobody',
      { timeout: 200_000 },
      async () => {
        const { dir, svc, run, left } = await stoppedRun();
        const db = new Database(join(run.state, LEDGER_FILE), { readonly: true });
        const pendingKeys = new Set(
          (db.prepare('SELECT keys FROM pending_creates').pluck().all() as string[]).flatMap(
            (keys) => JSON.parse(keys) as string[],
          ),
        );
        const resolvedCreates = db
          .prepare(
            `SELECT key, email FROM resolutions r WHERE contact_id IS NULL
           AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.key = r.key)`,
          )
          .raw()
          .all() as [string, string][];
        db.close();
        const emails = resolvedCreates.filter(([key]) => !pendingKeys.has(key)).map(([, email]) => email);
        expect(emails.length).toBe(left.resolvedCreates);
        const byEmail = new Map(run.rows.map((p) => [p.email.toLowerCase(), p]));
        // At least one, spread over all of them.
        const count = Math.max(1, Math.round(emails.length * fraction));
        const gained = emails
          .filter(
            (_, i) =>
              Math.floor((i * count) / emails.length) !== Math.floor(((i + 1) * count) / emails.length),
          )
          .map((e) => byEmail.get(e)!);
        expect(gained).toHaveLength(count);
        for (let at = 0; at < gained.length; at += 100) {
          await svc.client.createContacts(
            gained.slice(at, at + 100).map((p) => ({
              full_name: `Person Number${p.i}`,
              contact_emails: [{ email: p.email.toLowerCase() }],
            })),
          );
        }

        await continueRun(svc, dir, run);
        const report = readReport(join(dir, 'next'));
        expect(report.totals.updated).toBeGreaterThanOrEqual(count);
        await expectExactlyLoaded(svc.client, run.everyone);
        expectTruthfulReport(report, LAYOUT.rows, LAYOUT.rows);
      },
    );
  },
);

describe('a continuation after another client stored a person of the create the kill stopped before it left', () => {
  it(
    'looks that create up instead of resending it under its key, and doubles nobody',
    { timeout: 200_000 },
    async () => {
      const { dir, svc, run } = await stoppedRun();
      const db = new Database(join(run.state, LEDGER_FILE), { readonly: true });
      const pendingKeys = (db.prepare('SELECT keys FROM pending_creates').pluck().all() as string[]).flatMap(
        (keys) => JSON.parse(keys) as string[],
      );
      db.close();
      const onTarget = new Set(
        (await svc.client.local.contacts()).flatMap((c) => c.contact_emails.map((e) => e.email)),
      );
      // The chunk the kill stopped as it was handed to the network never reached the target.
      const neverSent = run.rows.filter(
        (p) => pendingKeys.includes(`email:${p.email.toLowerCase()}`) && !onTarget.has(p.email.toLowerCase()),
      );
      expect(neverSent.length).toBeGreaterThan(0);
      const person = neverSent[0]!;
      await svc.client.createContacts([
        { full_name: `Person Number${person.i}`, contact_emails: [{ email: person.email.toLowerCase() }] },
      ]);

      await continueRun(svc, dir, run);
      const report = readReport(join(dir, 'next'));
      await expectExactlyLoaded(svc.client, run.everyone);
      expectTruthfulReport(report, LAYOUT.rows, LAYOUT.rows);
    },
  );
});
