import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, cliArgs, readReport, startService } from '../e2e/harness.js';
import { writeHugeVcard } from '../support/huge-vcard.js';
import { runImport, type RunOptions } from '../../src/run/run.js';
import type { RunReport } from '../../src/report/run-report.js';

/**
 * A signal is honoured while an input blocks. Ctrl-C exits 130 and SIGTERM 143 with an
 * `interrupted` report, whether stdin is idle (through the built CLI) or a FIFO has no writer (the
 * same stop in this process); either would wait forever: the run is ended, and the test fails,
 * after 60 s.
 */
const dir = mkdtempSync(join(tmpdir(), 'ci-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ended {
  code: number | null;
  stderr: string;
}

/**
 * Starts the CLI with stdin a pipe that nobody writes to (held open), waits until the run has
 * started (its `run started` log line), then sends `signal`.
 */
const stopWhileWaiting = (args: string[], signal: NodeJS.Signals): Promise<Ended> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs([...args, '--log-level', 'info']), {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    let signalled = false;
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!signalled && stderr.includes('run started')) {
        signalled = true;
        // A moment more, so the reader is waiting for data when the signal comes.
        setTimeout(() => child.kill(signal), 300);
      }
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });

/**
 * `validate|run [pipeline] <inputs> --out <outDir>` (generic unless named) in this process, stopped
 * as the command line stops it on `signal` (aborted with the signal's name) once it has started
 * (its `run started` log line) and `afterMs` more, so the reader is in the middle of its input or
 * waiting for data; its report.
 */
const stopInProcess = async (
  run: Pick<RunOptions, 'inputs' | 'dryRun' | 'stateDir' | 'outDir'> &
    Partial<Pick<RunOptions, 'pipeline' | 'target'>>,
  signal: NodeJS.Signals,
  afterMs = 300,
): Promise<RunReport> => {
  const stop = new AbortController();
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(line: Buffer, _encoding, done) {
        if ((JSON.parse(line.toString()) as { msg?: string }).msg === 'run started')
          setTimeout(() => stop.abort(signal), afterMs);
        done();
      },
    }),
  );
  const guard = setTimeout(() => stop.abort('SIGKILL'), 60_000);
  try {
    const { report } = await runImport({
      pipeline: 'generic',
      stateDir: join(dir, `state-${basename(run.outDir!)}`),
      ...run,
      signal: stop.signal,
      logger,
    });
    return report;
  } finally {
    clearTimeout(guard);
  }
};

const fifo = (name: string): string => {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
};

describe('signals while an input blocks', () => {
  it('Ctrl-C with stdin idle: exit 130 at once, report interrupted', { timeout: 90_000 }, async () => {
    const out = join(dir, 'stdin-int');
    const ended = await stopWhileWaiting(['validate', 'generic', '-', '--out', out], 'SIGINT');
    expect(ended.code, ended.stderr).toBe(130);
    expect(readReport(out)).toMatchObject({ status: 'interrupted', exitCode: 130 });
    expect(ended.stderr).not.toMatch(/\n\s+at /);
  });

  it('SIGTERM with stdin idle: exit 143 at once', { timeout: 90_000 }, async () => {
    const out = join(dir, 'stdin-term');
    const ended = await stopWhileWaiting(['validate', 'generic', '-', '--out', out], 'SIGTERM');
    expect(ended.code, ended.stderr).toBe(143);
    expect(readReport(out)).toMatchObject({ status: 'interrupted', exitCode: 143 });
  });

  it(
    'SIGHUP (a dropped SSH session) stops like SIGTERM: report written, exit 143',
    { timeout: 90_000 },
    async () => {
      const out = join(dir, 'stdin-hup');
      const ended = await stopWhileWaiting(
        ['run', 'generic', '-', '--out', out, '--state', join(dir, 'state-hup')],
        'SIGHUP',
      );
      expect(ended.code, ended.stderr).toBe(143);
      expect(readReport(out)).toMatchObject({ status: 'interrupted', exitCode: 143 });
      expect(ended.stderr).not.toMatch(/\n\s+at /);
    },
  );

  // The command line turns each signal into the run's stop (the tests above); that a FIFO with no
  // writer gives way to it is the reader's: `validate` and `run` of one, stopped in this process.
  it(
    'a FIFO without a writer: SIGTERM ends it with 143, Ctrl-C with 130, for validate and run',
    { timeout: 120_000 },
    async () => {
      const term = await stopInProcess(
        { inputs: [fifo('no-writer.csv')], dryRun: true, outDir: join(dir, 'fifo-term') },
        'SIGTERM',
      );
      expect(term.exitCode, JSON.stringify(term.error)).toBe(143);
      const int = await stopInProcess(
        { inputs: [fifo('no-writer-2.csv')], stateDir: join(dir, 'state'), outDir: join(dir, 'fifo-int') },
        'SIGINT',
      );
      expect(int.exitCode).toBe(130);
      expect(readReport(join(dir, 'fifo-int'))).toMatchObject({ status: 'interrupted', exitCode: 130 });
    },
  );

  it('a FIFO whose writer comes later is read whole', { timeout: 90_000 }, async () => {
    // Waiting for a writer is the reader's (it opens a FIFO without blocking, and no writer yet
    // is no end of input): `validate generic <fifo> --out <out>` in this process.
    const path = fifo('late-writer.csv');
    const out = join(dir, 'fifo-late');
    const ran = runImport({
      pipeline: 'generic',
      inputs: [path],
      dryRun: true,
      stateDir: join(dir, 'state-late'),
      outDir: out,
    });
    let ended = false;
    ran.then(
      () => (ended = true),
      () => (ended = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Opened without blocking, the write end opens only once the run holds the FIFO open for
    // reading (ENXIO before): the run is waiting when the rows come.
    let writer: number | undefined;
    while (writer === undefined && !ended) {
      try {
        writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(ended, 'the run ended before the FIFO had a writer').toBe(false);
    writeSync(writer!, 'full_name,email\nAnn Lee,ann@example.com\nBob Ray,bob@example.com\n');
    closeSync(writer!);
    const { report } = await ran;
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    expect(readReport(out).totals).toMatchObject({ read: 2, created: 2 });
  });
});

describe('a signal in the middle of reading a huge vCard', () => {
  // The command line turns SIGTERM into the run's stop (the tests above); that the vCard reader
  // gives way to it in the middle of a card is the reader's: `run vcard <file> --target <svc>`,
  // stopped in this process. How soon the command line ends (within a second) is
  // test/perf/signal-latency.test.ts.
  it(
    'SIGTERM while quoted-printable photos of megabytes are read: exit 143, report interrupted, reading stopped',
    { timeout: 180_000 },
    async () => {
      // 12 cards of 2.6 MB each: seconds of reading, stopped half a second in.
      const input = writeHugeVcard(dir, 12);
      const svc = await startService();
      try {
        const out = join(dir, 'vcard-term');
        const stopped = await stopInProcess(
          {
            pipeline: 'vcard',
            inputs: [input],
            target: { url: svc.service.url, apiKey: svc.key },
            stateDir: join(dir, 'state-vcard'),
            outDir: out,
          },
          'SIGTERM',
          500,
        );
        expect(stopped.exitCode, JSON.stringify(stopped.error)).toBe(143);
        const report = readReport(out);
        expect(report).toMatchObject({ status: 'interrupted', exitCode: 143 });
        // Stopped in the middle: not every card was read, and the report says where it stopped.
        expect(report.inputs[0]).toMatchObject({ readWhole: false });
        expect(report.totals.read).toBeLessThan(12);
        expect(report.readingStopped?.file).toBe(input);
        // What the report says was created is what the service holds.
        expect(await svc.client.local.contacts()).toHaveLength(report.totals.created);
      } finally {
        await svc.close();
      }
    },
  );
});

describe('a reader of stdout that goes away', () => {
  it(
    '`run ... | head -1` ends the run as it would have ended, report written, no crash',
    { timeout: 90_000 },
    async () => {
      const out = join(dir, 'piped');
      const input = join(dir, 'piped.csv');
      writeFileSync(input, 'full_name,email\nAnn Lee,ann@example.com\nBob Ray,bob@example.com\n');
      // No pipeline named: "Detected pipeline ..." is the first line; head takes it and exits, so
      // the summary is written into a closed pipe. PIPESTATUS[0] is the CLI's own exit code.
      const script =
        '"$0" "$1" run "$2" --out "$3" --state "$4" | head -1; echo "status=${PIPESTATUS[0]}" >&2';
      const child = spawn(
        'bash',
        ['-c', script, process.execPath, CLI, input, out, join(dir, 'state-piped')],
        {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      expect(stdout).toMatch(/^Detected pipeline/);
      expect(stderr).toMatch(/status=0/);
      expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(readReport(out)).toMatchObject({ status: 'completed', exitCode: 0, totals: { created: 2 } });
    },
  );
});
