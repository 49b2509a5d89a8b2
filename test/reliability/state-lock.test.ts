import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_HOLDER_FILE, type LockHolder } from '../../src/state/index.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { cliArgs, loadInProcess, readReport, startService, type TestService } from '../e2e/harness.js';
import { expectExactlyLoaded, expectTruthfulReport } from './helpers.js';
import { refusalOf } from '../e2e/cli-in-process.js';

/** One run per state directory, held by an OS lock that dies with the process. */
let svc: TestService | undefined;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await svc?.close();
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `count` people: the run that holds the lock reads them from stdin when the test writes them. */
const setup = async (count: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-lock-'));
  dirs.push(dir);
  svc = await startService();
  const rows = people(count);
  const file = writeGenericCsv(dir, 'people.csv', rows);
  const state = join(dir, 'state');
  const args = (out: string, input = file) => [
    'run',
    'generic',
    input,
    '--target',
    svc!.service.url,
    '--state',
    state,
    '--out',
    join(dir, out),
    '--chunk-size',
    '20',
    '--concurrency',
    '2',
    // The ledger alone carries the rerun: no per-record searches slow it down.
    '--match',
    'none',
  ];
  const env = { CONTACT_IMPORT_API_KEY: svc.key };
  /**
   * The same people read from stdin, which the test writes when it chooses: the run holds the
   * state directory while it waits for them, however fast or slow the machine.
   */
  const start = (out: string) => {
    const child = spawn(process.execPath, cliArgs(args(out, '-')), {
      cwd: dir,
      env: { ...process.env, ...env },
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return { child, exited };
  };
  /** The holder's note once the child holds the lock. */
  const heldBy = async (child: ChildProcess): Promise<LockHolder> => {
    const pid = child.pid!;
    while (child.exitCode === null && child.signalCode === null) {
      try {
        const holder = JSON.parse(readFileSync(join(state, RUN_HOLDER_FILE), 'utf8')) as LockHolder;
        if (holder.pid === pid) return holder;
      } catch {
        // not written yet
      }
      await sleep(20);
    }
    throw new Error(`pid ${pid} ended without holding the state directory`);
  };
  return { dir, file, rows, state, args, env, start, heldBy, csv: readFileSync(file, 'utf8') };
};

describe('one run per state directory', () => {
  it(
    'a second run on the same state exits 2 at once naming the holder; the first loads everyone once',
    { timeout: 120_000 },
    async () => {
      // A few chunks' worth: what matters is that the first run holds the directory while it waits.
      const { dir, file, rows, state, start, heldBy, csv } = await setup(100);
      const first = start('first');
      const holder = await heldBy(first.child);

      // At once: it ends (exit 2) while the first run still holds the directory, checked below. In
      // this process, another one than the holder's: the refusal is the library's, and the one line
      // the command line prints for it is its `code: message` (as for every stop: run-target.test.ts).
      const second = await refusalOf(
        loadInProcess(
          svc!,
          file,
          { stateDir: state, outDir: join(dir, 'second') },
          { chunkSize: 20, concurrency: 2, match: 'none' },
        ),
      );
      expect(second?.code).toBe('state_locked');
      expect(second?.message).not.toContain('\n');
      expect(second?.message).toContain(
        `run ${holder.runId} (pid ${first.child.pid}, since ${holder.since})`,
      );
      expect(existsSync(join(dir, 'second')), 'the refused run wrote nothing').toBe(false);
      expect(first.child.exitCode, 'the first run was still going').toBeNull();

      first.child.stdin!.end(csv);
      expect(await first.exited).toBe(0);
      const report = readReport(join(dir, 'first'));
      expect(report.runId).toBe(holder.runId);
      expectTruthfulReport(report, await expectExactlyLoaded(svc!.client, rows), rows.length);
    },
  );

  it(
    'kill -9 never leaves it locked: the same command right after runs and finishes the job',
    { timeout: 120_000 },
    async () => {
      const { dir, file, rows, state, start, heldBy, csv } = await setup(1200);
      const first = start('killed');
      await heldBy(first.child);
      // 1,000 of the people, past the 64 KB a reader takes in before it parses, and stdin held
      // open: the run loads what it has read and waits for the rest.
      const lines = csv.split('\n');
      first.child.stdin!.write(lines.slice(0, 1001).join('\n') + '\n');
      // Killed once 100 of them reached the service (5 create chunks of 20), counted by the service
      // in this process: reading the contacts back each time would cost more than the load.
      const service = svc!.service;
      const createsReceived = () => service.requestCounts()['POST /v1/contacts/'] ?? 0;
      while (first.child.exitCode === null && createsReceived() < 5) await sleep(20);
      expect(first.child.exitCode, 'killed while it held the state directory').toBeNull();
      first.child.kill('SIGKILL');
      await first.exited;

      // In this process (the refusal is the first test's): a directory
      // still locked would make runImport throw state_locked before it writes anything.
      const next = await loadInProcess(
        svc!,
        file,
        { stateDir: state, outDir: join(dir, 'next') },
        { chunkSize: 20, concurrency: 2, match: 'none' },
      );
      expect(next.report.exitCode, JSON.stringify(next.report.error)).toBe(0);
      const report = readReport(join(dir, 'next'));
      expect(report.totals.read).toBe(rows.length);
      expect(report.totals.created + report.totals.unchanged).toBe(rows.length);
      await expectExactlyLoaded(svc!.client, rows);
    },
  );
});
