import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultCounts } from '../../src/server/faults.js';
import { runImport, type RunResult } from '../../src/run/run.js';
import { people, writeGenericCsv, type Person } from '../e2e/generic-csv.js';
import { readIssues, startService, tempDir, type TestService } from '../e2e/harness.js';
import { expectExactlyLoaded, expectTruthfulReport } from './helpers.js';

/**
 * Runs against the local service while it injects 20% 503s, 429s with Retry-After,
 * connections reset after the work was done, answers cut off halfway, and answers slower than the
 * client's timeout. Everything must load exactly once and the report must count the retries.
 */
let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const importFile = (
  file: string,
  dir: string,
  out: string,
  options: Partial<Parameters<typeof runImport>[0]> = {},
) =>
  runImport({
    pipeline: 'generic',
    inputs: [file],
    target: { url: svc!.service.url, apiKey: svc!.key },
    stateDir: join(dir, 'state'),
    outDir: join(dir, out),
    // Small chunks: a few hundred rows make as many requests (and so as many faults) as thousands
    // in the default chunks would.
    chunkSize: 10,
    // Short retry delays so the storm stays fast; enough retries that a run of bad luck is not the
    // test. The service answers in this process, so on a busy machine an answer that is not slow
    // may still take a second or two: the requests time out after 4 s, which only the storm's slow
    // answers (8 s) reach. The start probe ends a run at its first timeout (no retry), and a slow
    // answer falls on whichever request comes n-th, the second run's probe too: the probe waits
    // past it.
    client: { timeoutMs: 4000, probeTimeoutMs: 30_000, retries: 12, minRetryDelayMs: 5, maxRetryDelayMs: 50 },
    ...options,
  });

const faultsSince = (before: FaultCounts): FaultCounts => {
  const now = svc!.service.injectedFaults();
  return {
    failed: now.failed - before.failed,
    rateLimited: now.rateLimited - before.rateLimited,
    reset: now.reset - before.reset,
    cut: now.cut - before.cut,
    slow: now.slow - before.slow,
  };
};
const sum = (c: FaultCounts) => c.failed + c.rateLimited + c.reset + c.cut + c.slow;

describe('fault storms', () => {
  it(
    'loads everything exactly once through 503s, 429s, resets, cut-off answers and timeouts, and counts the retries',
    { timeout: 240_000 },
    async () => {
      const dir = tempDir();
      svc = await startService({
        failRate: 0.2,
        rateLimit: 20,
        // Not announced, so the client meets 429s rather than pacing before them.
        rateLimitHeaders: false,
        resetRate: 0.05,
        cutRate: 0.05,
        slowRate: 0.03,
        slowMs: 8000,
        seed: 6,
      });

      // Phase 1: creates (groups, the custom field, contacts) into an empty target.
      const first = people(150);
      let before = svc.service.injectedFaults();
      const one = await importFile(writeGenericCsv(dir, 'one.csv', first), dir, 'one');
      const storm1 = faultsSince(before);
      expect(one.report.error, JSON.stringify(one.report.error)).toBeUndefined();
      expect(one.report.status).toBe('completed');
      expect(one.report.exitCode).toBe(0);
      expect(sum(storm1)).toBeGreaterThan(0);
      // Every injected fault cost the client one more attempt, or (a create whose answer was lost)
      // one check by search before the resend; none of them cost a record.
      const lostCreates = one.report.requests.byEndpoint['POST /v1/contacts/']?.failed ?? 0;
      expect(one.report.requests.retried + lostCreates).toBeGreaterThanOrEqual(sum(storm1));
      expect(one.report.requests.failed).toBe(lostCreates);
      expect(one.report.totals.failed).toBe(0);
      expectTruthfulReport(one.report, await expectExactlyLoaded(svc.client, first), 150);
      expect(one.report.totals.created).toBe(150);

      // Phase 2: updates by ledger (changed titles), e-mail searches and creates (new rows).
      const second: Person[] = [
        ...first.map((p) => (p.i % 3 === 0 ? { ...p, title: `Lead ${p.i}` } : p)),
        ...people(50, 150),
      ];
      before = svc.service.injectedFaults();
      const two = await importFile(writeGenericCsv(dir, 'two.csv', second), dir, 'two');
      const storm2 = faultsSince(before);
      expect(two.report.status).toBe('completed');
      const lostCreates2 = two.report.requests.byEndpoint['POST /v1/contacts/']?.failed ?? 0;
      expect(two.report.requests.retried + lostCreates2).toBeGreaterThanOrEqual(sum(storm2));
      expectTruthfulReport(two.report, await expectExactlyLoaded(svc.client, second), 200);
      expect(two.report.totals).toMatchObject({ created: 50, updated: 50, unchanged: 100 });

      // Each kind of fault really happened during the storm.
      const all = svc.service.injectedFaults();
      for (const kind of ['failed', 'rateLimited', 'reset', 'cut', 'slow'] as const)
        expect(all[kind], kind).toBeGreaterThan(0);
    },
  );

  it(
    'ends with exit 2 and a clear message when the service goes down and stays down, and the next run finishes the job',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const db = join(dir, 'service.sqlite');
      svc = await startService({ db });
      const { key } = svc;
      const port = Number(new URL(svc.service.url).port);
      const rows = people(100);
      const file = writeGenericCsv(dir, 'people.csv', rows);

      let down: Promise<void> | undefined;
      let chunksDone = 0;
      const stopped: RunResult = await importFile(file, dir, 'down', {
        chunkSize: 5,
        client: {
          timeoutMs: 2000,
          probeTimeoutMs: 30_000,
          retries: 3,
          minRetryDelayMs: 10,
          maxRetryDelayMs: 50,
        },
        // Down once 40 are created (8 of 20 chunks): counted by chunk, since a run that loads while it reads
        // reports load progress only once reading ends, and by then it may have sent nearly all.
        hooks: {
          onStep: (step) => {
            if (step === 'create-done' && ++chunksDone === 8) down ??= svc!.service.close();
          },
        },
      });
      await down;
      const { report } = stopped;
      expect(report.status).toBe('aborted');
      expect(report.exitCode).toBe(2);
      expect(report.error?.code).toBe('retries_exhausted');
      expect(report.error?.message).toMatch(
        /kept failing after every retry: .*(ECONNREFUSED|connect|closed|socket)/i,
      );
      expect(report.totals.created).toBeGreaterThanOrEqual(40);
      expect(report.totals.created).toBeLessThan(100);
      // The chunks whose requests ran out of retries failed; what was never sent is pending.
      expect(report.totals.created + report.totals.failed + report.totals.pending).toBe(100);
      expect(report.totals.failed).toBeGreaterThan(0);
      expect(report.totals.pending).toBeGreaterThan(0);
      const errors = readIssues(stopped.outDir).filter((i) => i.severity === 'error');
      expect(errors).toHaveLength(report.totals.failed);
      expect(new Set(errors.map((i) => i.code))).toEqual(new Set(['load_failed']));
      expect(errors[0]!.message).toMatch(/the same command sends it again/);

      // The service is back (same port, same database): the same command finishes the job.
      svc = await startService({ db, apiKeys: [key], port });
      const stored = (await svc.client.local.contacts()).length;
      // Creates in flight when it went down may be stored without the run having heard back;
      // they are pending in the ledger, and the next run resends them under the same key.
      expect(stored).toBeGreaterThanOrEqual(report.totals.created);
      const again = await importFile(file, dir, 'again');
      expect(again.report.status).toBe('completed');
      expect(again.report.exitCode).toBe(0);
      expectTruthfulReport(again.report, await expectExactlyLoaded(svc.client, rows), 100);
      expect(again.report.totals.unchanged).toBeGreaterThanOrEqual(report.totals.created);
    },
  );

  it('stops with exit 2 before reading anything when the target is unreachable from the start', async () => {
    const dir = tempDir();
    const file = writeGenericCsv(dir, 'people.csv', people(10));
    // The run cannot start: it throws before anything is written (nothing on disk
    // when nothing was read), where it used to return an aborted report.
    const started = runImport({
      pipeline: 'generic',
      inputs: [file],
      // Port 9 (discard) on loopback: nothing listens, every connection is refused.
      target: { url: 'http://127.0.0.1:9', apiKey: 'unreachable-key-0001' },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'out'),
      client: { retries: 2, minRetryDelayMs: 5, maxRetryDelayMs: 20 },
    });
    await expect(started).rejects.toMatchObject({
      code: 'target_unreachable',
      message: expect.stringMatching(/cannot reach http:\/\/127\.0\.0\.1:9/),
    });
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});
