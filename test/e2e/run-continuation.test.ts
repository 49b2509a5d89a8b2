import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { openLedger, scopeId } from '../../src/state/index.js';
import { CONTINUATION_SAMPLE } from '../../src/load/continuation.js';
import { people, writeGenericCsv, type Person } from './generic-csv.js';
import { CLI, readReport, runCli, type TestService } from './harness.js';

/**
 * Issue 15.1: the same command after Ctrl-C or kill -9 sends what is left, not a search per record.
 * Requests are counted at the service (LocalService.requestCounts), not taken from the report.
 * The issue states its bound at 20,000 rows; 6,000 show the same: what a continuation sends on top
 * of the chunks (its probe, its check of the target: CONTINUATION_SAMPLE exact searches, the
 * lookups of the creates a kill left pending) does not grow with the number of rows or contacts.
 */
const each = perTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ROWS = 6000;
const GAINED_ROWS = 3000;
const CHUNK = 50;
const CONCURRENCY = 4;
const SEARCH = 'GET /v1/search/contacts';
const CREATE = 'POST /v1/contacts/';

const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);
const since = (before: Record<string, number>, after: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([route, n]) => [route, n - (before[route] ?? 0)]));

/** A first run of `rows` into the empty service, stopped with `signal` once 40 % were sent. */
const stopAtFortyPercent = async (svc: TestService, dir: string, rows: Person[], signal: NodeJS.Signals) => {
  const file = writeGenericCsv(dir, 'people.csv', rows);
  // The default --match email: a first run into an empty target searches nothing; neither may its continuation.
  const args = ['run', 'generic', file, '--target', svc.service.url, '--state', join(dir, 'state')];
  args.push('--chunk-size', String(CHUNK), '--concurrency', String(CONCURRENCY));
  const env = { ...process.env, CONTACT_IMPORT_API_KEY: svc.key };
  const child = spawn(process.execPath, [CLI, ...args, '--out', join(dir, 'first')], { cwd: dir, env });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const deadline = Date.now() + 40_000;
  // The service's count of create requests (in this process, free to read), not a listing of
  // every stored contact: listing thousands ten times a second cost more than the run itself.
  const sentCreates = () => (svc.service.requestCounts()[CREATE] ?? 0) * CHUNK;
  while (sentCreates() < rows.length * 0.4 && Date.now() < deadline) await sleep(20);
  child.kill(signal);
  await exited;
  const stored = (await svc.client.local.contacts()).length;
  expect(stored).toBeGreaterThan(0);
  expect(stored).toBeLessThan(rows.length);
  return { args, stored };
};

/** The creates the stopped run left pending in its ledger: chunks, and the records they hold. */
const pendingInLedger = (svc: TestService, state: string) => {
  const ledger = openLedger({ dir: state });
  try {
    const pending = ledger.scope(scopeId(svc.service.url, svc.key)).pendingCreates();
    return { chunks: pending.length, records: pending.reduce((n, p) => n + p.keys.length, 0) };
  } finally {
    ledger.close();
  }
};

describe.each([
  ['Ctrl-C', 'SIGINT'],
  ['kill -9', 'SIGKILL'],
] as const)('a continuation after %s at about 40 %%', (_name, signal) => {
  it(
    'sends the chunks left and the pending ones, and stores every person once',
    { timeout: 150_000 },
    async () => {
      const dir = each.dir();
      const svc = await each.start({ latencyMs: 15 });
      const rows = people(ROWS);
      const { args, stored } = await stopAtFortyPercent(svc, dir, rows, signal);
      const pending = pendingInLedger(svc, join(dir, 'state'));
      // Ctrl-C lets the requests in flight finish: nothing is left pending.
      if (signal === 'SIGINT') expect(pending.chunks).toBe(0);

      const before = svc.service.requestCounts();
      const next = await runCli([...args, '--out', join(dir, 'next')], {
        cwd: dir,
        env: { CONTACT_IMPORT_API_KEY: svc.key },
      });
      expect(next.code, next.stderr).toBe(0);
      const sent = since(before, svc.service.requestCounts());
      const chunksLeft = Math.ceil((ROWS - stored) / CHUNK);
      // The bound: chunks left + pending + 20. A pending create is checked before it is
      // resent (issue 15.4): one exact search per record it holds, then its chunk.
      expect(total(sent), JSON.stringify(sent)).toBeLessThanOrEqual(
        chunksLeft + pending.chunks + pending.records + 20,
      );
      // The probe, the check, the pending records: no search per record to go.
      expect(sent[SEARCH] ?? 0, 'no search per record').toBeLessThanOrEqual(
        1 + CONTINUATION_SAMPLE + pending.records,
      );
      const report = readReport(join(dir, 'next'));
      // Loaded counts the pending creates it settled (found, or resent) before going on.
      expect(report.continues?.loaded).toBeGreaterThanOrEqual(stored);
      expect(report.continues?.loaded).toBeLessThanOrEqual(stored + pending.records);
      expect(report.continues?.toGo).toBe(ROWS - report.continues!.loaded);
      expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), ROWS);
    },
  );
});

describe('a continuation into a target that gained contacts the run did not write', () => {
  it('searches as a first run would, says why, and doubles nobody', { timeout: 150_000 }, async () => {
    const dir = each.dir();
    const svc = await each.start({ latencyMs: 15 });
    // Its bound is per record, not a fixed slack: fewer rows show it as well, and sooner.
    const rows = people(GAINED_ROWS);
    const { args, stored } = await stopAtFortyPercent(svc, dir, rows, 'SIGINT');
    // Someone else stores every second person the run has not sent yet (the ledger cannot know).
    const known = new Set(
      (await svc.client.local.contacts()).flatMap((c) => c.contact_emails.map((e) => e.email)),
    );
    const others = rows.filter((p, i) => i % 2 === 0 && !known.has(p.email.toLowerCase()));
    for (let at = 0; at < others.length; at += 100) {
      const part = others.slice(at, at + 100);
      await svc.client.createContacts(
        part.map((p) => ({
          full_name: `Person Number${p.i}`,
          contact_emails: [{ email: p.email.toLowerCase() }],
        })),
      );
    }

    const before = svc.service.requestCounts();
    const next = await runCli([...args, '--out', join(dir, 'next')], {
      cwd: dir,
      env: { CONTACT_IMPORT_API_KEY: svc.key },
    });
    expect(next.code, next.stderr).toBe(0);
    const sent = since(before, svc.service.requestCounts());
    expect(next.stdout + next.stderr).toMatch(
      /searching after all: \d+ of \d+ records this run has not sent yet are already on the target/,
    );
    const report = readReport(join(dir, 'next'));
    expect(report.continues).toBeUndefined();
    // Every record the ledger does not know was searched (the probe and the check come on top).
    expect(sent[SEARCH] ?? 0).toBeGreaterThanOrEqual(GAINED_ROWS - stored);
    expect(report.totals.updated).toBe(others.length);
    expect(report.totals.created).toBe(GAINED_ROWS - stored - others.length);
    expectTruthfulReport(report, await expectExactlyLoaded(svc.client, rows), GAINED_ROWS);
  });
});
