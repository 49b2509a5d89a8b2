import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport, type RunOptions } from '../../src/run/run.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import {
  cliArgs,
  outcomes,
  readReport,
  runCli,
  startService,
  tempDir,
  type TestService,
} from '../e2e/harness.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';

/**
 * DESIGN.md "Trust": a target that asks for a long wait. A `Retry-After` (or a pace) longer than
 * `--max-wait` stops the run at once (exit 2, `target_busy`) saying when the target takes requests
 * again; a shorter one is waited for, said on stderr while it lasts, and Ctrl-C or SIGTERM end
 * it at once (130, 143: Ctrl-C through the command line, SIGTERM's stop in this process). The target is the local service behind a proxy that answers 429 itself.
 */
let svc: TestService | undefined;
let proxy: RewritingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await svc?.close();
  proxy = undefined;
  svc = undefined;
});

const CREATE = /^\/v1\/contacts\/?$/;
const SEARCH = /^\/v1\/search\/contacts/;

const rateLimited = (retryAfter: string) => ({
  status: 429,
  headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  body: JSON.stringify({
    error: true,
    data: { code: 'rate_limited', message: 'Too many requests.', details: [] },
  }),
});

/**
 * A folder with 30 people, a proxy in front of a fresh service, the CLI's arguments, and the same
 * run in this process (for a run the test needs but whose command line it does not check).
 */
const setup = async () => {
  const dir = tempDir();
  svc = await startService();
  proxy = await startRewritingProxy(svc.service.url);
  const file = writeGenericCsv(dir, 'people.csv', people(30));
  const args = (out: string, ...more: string[]) => [
    'run',
    'generic',
    file,
    '--target',
    proxy!.url,
    '--state',
    join(dir, 'state'),
    '--out',
    join(dir, out),
    ...more,
  ];
  const env = { CONTACT_IMPORT_API_KEY: svc.key };
  const importHere = (out: string, settings: Pick<RunOptions, 'maxWait' | 'signal' | 'logger'> = {}) =>
    runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: proxy!.url, apiKey: svc!.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, out),
      ...settings,
    });
  /** Once the target takes requests again, the same run loads everyone exactly once. */
  const expectRerunLoadsAll = async () => {
    proxy!.answer = undefined;
    const again = await importHere('again');
    expect(again.report).toMatchObject({ status: 'completed', exitCode: 0 });
    const stored = await svc!.client.local.contacts();
    expect(stored).toHaveLength(30);
    expect(new Set(stored.map((c) => c.full_name)).size).toBe(30);
  };
  return { dir, args, env, importHere, expectRerunLoadsAll };
};

/** When the message says the target takes requests again, as a time. */
const untilIn = (stderr: string): number => {
  const at = /takes requests again at (\S+)/.exec(stderr);
  expect(at, stderr).not.toBeNull();
  return Date.parse(at![1]!);
};

/** What a run stopped by a long Retry-After on creates must report: nothing applied, all pending. */
const expectBusyReport = (report: ReturnType<typeof readReport>) => {
  expect(report).toMatchObject({ status: 'aborted', exitCode: 2, error: { code: 'target_busy' } });
  // The 429 applied nothing: those records are pending (the same command sends them), none failed.
  expect(report.totals).toMatchObject({ created: 0, failed: 0, pending: 30 });
  expect(outcomes(report)).toBe(report.totals.read);
};

describe('a target that asks for a wait longer than --max-wait', () => {
  // The time it names is the answer's time plus the wait: between the run's start and end plus
  // the wait (a second either side for the whole seconds it is said in), however long it ran.
  const expectUntil = (message: string, startedAt: number, endedAt: number, ms: number) => {
    const until = untilIn(message);
    expect(until).toBeGreaterThanOrEqual(startedAt + ms - 1000);
    expect(until).toBeLessThanOrEqual(endedAt + ms + 1000);
  };

  it(
    'Retry-After: 3000000 on creates stops the run at once: exit 2, target_busy, the time',
    { timeout: 60_000 },
    async () => {
      const { dir, args, env, expectRerunLoadsAll } = await setup();
      proxy!.answer = (req) =>
        req.method === 'POST' && CREATE.test(req.url) ? rateLimited('3000000') : undefined;
      const startedAt = Date.now();
      const result = await runCli(args('busy'), { cwd: dir, env });
      const endedAt = Date.now();
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('contact-import: target_busy:');
      expect(result.stderr).toContain('--max-wait');
      // The 32-bit timer never overflowed into a loop of 1 ms timers.
      expect(result.stderr).not.toContain('TimeoutOverflowWarning');
      expectUntil(result.stderr, startedAt, endedAt, 3_000_000_000);
      expectBusyReport(readReport(join(dir, 'busy')));
      await expectRerunLoadsAll();
    },
  );

  // The command line's side of the stop is the test above; a wait within the 32-bit timer's range
  // is the same stop, seen in the report.
  it('Retry-After: 86400 on creates stops the run at once, in the report', { timeout: 60_000 }, async () => {
    const { importHere, expectRerunLoadsAll } = await setup();
    proxy!.answer = (req) =>
      req.method === 'POST' && CREATE.test(req.url) ? rateLimited('86400') : undefined;
    const startedAt = Date.now();
    const { report } = await importHere('busy');
    const endedAt = Date.now();
    expectBusyReport(report);
    expect(report.error?.message).toContain('--max-wait');
    expectUntil(report.error!.message, startedAt, endedAt, 86_400_000);
    await expectRerunLoadsAll();
  });

  it('Retry-After as an HTTP date is read as that time', { timeout: 60_000 }, async () => {
    const { importHere } = await setup();
    const date = new Date(Date.now() + 2 * 3600_000);
    date.setUTCMilliseconds(0);
    proxy!.answer = (req) =>
      req.method === 'POST' && CREATE.test(req.url) ? rateLimited(date.toUTCString()) : undefined;
    const { report } = await importHere('dated', { maxWait: 600 });
    expect(report).toMatchObject({ exitCode: 2, error: { code: 'target_busy' } });
    expect(Math.abs(untilIn(report.error!.message) - date.getTime())).toBeLessThanOrEqual(1000);
  });

  it(
    'a wait under --max-wait is waited for (a wait of 1 s here) and the run completes',
    { timeout: 60_000 },
    async () => {
      const { importHere } = await setup();
      let limited = 0;
      proxy!.answer = (req) =>
        req.method === 'POST' && CREATE.test(req.url) && limited++ === 0 ? rateLimited('1') : undefined;
      const { report } = await importHere('short', { maxWait: 5 });
      expect(report).toMatchObject({ status: 'completed', exitCode: 0 });
      expect(limited).toBeGreaterThanOrEqual(2);
      expect(report.totals.created).toBe(30);
    },
  );
});

interface Stopped {
  code: number | null;
  stderr: string;
}

/**
 * Starts the run, waits until it says on stderr that it waits for the target, then sends
 * `signal`; resolves when the process has ended.
 */
const stopWhileWaiting = (args: string[], env: Record<string, string>, cwd: string, signal: NodeJS.Signals) =>
  new Promise<Stopped>((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd, env: { ...process.env, ...env } });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!sent && stderr.includes('target asked to wait')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });

describe('Ctrl-C and SIGTERM while the run waits for the target', () => {
  const waitOnCreates = () => {
    proxy!.answer = (req) => (req.method === 'POST' && CREATE.test(req.url) ? rateLimited('200') : undefined);
  };
  const expectStoppedWaiting = async (dir: string, expectRerunLoadsAll: () => Promise<void>) => {
    const report = readReport(join(dir, 'stopped'));
    expect(report.status).toBe('interrupted');
    expect(report.totals).toMatchObject({ created: 0, failed: 0, pending: 30 });
    await expectRerunLoadsAll();
  };

  it(
    'Ctrl-C during a Retry-After of 200 s on creates ends the run at once: exit 130',
    { timeout: 60_000 },
    async () => {
      const { dir, args, env, expectRerunLoadsAll } = await setup();
      waitOnCreates();
      const stopped = await stopWhileWaiting(args('stopped'), env, dir, 'SIGINT');
      expect(stopped.stderr).toMatch(/target asked to wait 200 s \(until \d{4}-\d\d-\d\dT/);
      expect(stopped.code, stopped.stderr).toBe(130);
      await expectStoppedWaiting(dir, expectRerunLoadsAll);
    },
  );

  // The command line turns a signal into the run's stop (its exit code by the signal's name,
  // signals.test.ts); that the wait ends at once is the run's, in this process.
  it('SIGTERM during a Retry-After of 200 s on creates ends the run at once: exit 143', async () => {
    const { dir, importHere, expectRerunLoadsAll } = await setup();
    waitOnCreates();
    const stop = new AbortController();
    const said: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(line: Buffer, _encoding, done) {
          const { msg } = JSON.parse(line.toString()) as { msg: string };
          said.push(msg);
          if (msg.startsWith('target asked to wait')) stop.abort('SIGTERM');
          done();
        },
      }),
    );
    const { report } = await importHere('stopped', { signal: stop.signal, logger });
    expect(said.join('\n')).toMatch(/target asked to wait 200 s \(until \d{4}-\d\d-\d\dT/);
    expect(report.exitCode, JSON.stringify(report.error)).toBe(143);
    await expectStoppedWaiting(dir, expectRerunLoadsAll);
  });

  it('Ctrl-C while the start probe waits for a Retry-After exits 130', { timeout: 60_000 }, async () => {
    const { dir, args, env } = await setup();
    proxy!.answer = (req) => (req.method === 'GET' && SEARCH.test(req.url) ? rateLimited('200') : undefined);
    const stopped = await stopWhileWaiting(args('probe'), env, dir, 'SIGINT');
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('interrupted: stopped while waiting for the target');
  });
});
