import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { createLocalClient, type LocalClient } from '../support/local-client.js';
import { tempDir } from '../support/temp-dirs.js';
import type { RunReport } from '../../src/report/run-report.js';
import { runImport, type RunOptions, type RunResult } from '../../src/run/run.js';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../src/server/index.js';

export { tempDir };

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/cli/main.js');
export const SAMPLES = join(ROOT, 'samples');
export const TESTDATA = resolve(ROOT, '../shared/testdata');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** What the child reads on stdin: all at once, or a stream the test writes to as it goes. */
  stdin?: string | Buffer | Readable;
  timeoutMs?: number;
}

/** Runs the built CLI in `cwd` (a fresh temp folder by default), never inheriting a real key. */
export const runCli = (args: string[], options: CliOptions = {}): Promise<CliResult> =>
  runNode(cliArgs(args), options);

/**
 * What a test spawns `node` with to run the built CLI: `[CLI, ...args]`, and for `run` and
 * `validate` no progress line unless the test asks for one: on a loaded machine a run past the
 * 10 s interval prints one, and an expectation on stderr would race it.
 */
export const cliArgs = (args: string[]): string[] => [
  CLI,
  ...(['run', 'validate'].includes(args[0] ?? '') && !args.includes('--progress-interval')
    ? [...args, '--progress-interval', '0']
    : args),
];

/** What test/support/hooked-run.mjs takes: runImport's options (target as a URL) and its hooks. */
export interface HookedRun {
  run: {
    pipeline: string;
    inputs: string[];
    target?: string;
    stateDir: string;
    outDir: string;
    /** A sync run (`--sync`, `--max-archive`, `--chunk-size`). */
    sync?: string;
    maxArchive?: string;
    chunkSize?: number;
    dryRun?: boolean;
    candidates?: 'on' | 'off';
  };
  /** `<step>:<n>`: SIGKILL the run the n-th time it passes the step (src/run/hooks.ts). */
  killAt?: string;
  /** The n-th time the run passes `<step>` (`at`), the file at `path` is cut to `size` bytes. */
  truncateAt?: { at: string; path: string; size: number };
}

/** One run through the built library with run hooks (the CLI has none), like runCli otherwise. */
export const runHooked = (plan: HookedRun, options: CliOptions = {}): Promise<CliResult> =>
  runNode([HOOKED_RUN, JSON.stringify(plan)], options);

const HOOKED_RUN = join(ROOT, 'test/support/hooked-run.mjs');

/**
 * A `generic` run of `file` into `target` through runHooked, SIGKILLed at `killAt`; its outputs
 * go to `<cwd>/<outDir>`. The same command afterwards is the test's own.
 */
export const killGenericRun = (
  plan: { file: string; target: string; stateDir: string; outDir: string; killAt: string } & Pick<
    HookedRun['run'],
    'chunkSize' | 'candidates'
  >,
  options: CliOptions & { cwd: string },
): Promise<CliResult> => {
  const { file, killAt, outDir, ...run } = plan;
  return runHooked(
    { run: { pipeline: 'generic', inputs: [file], ...run, outDir: join(options.cwd, outDir) }, killAt },
    options,
  );
};

const runNode = (args: string[], options: CliOptions): Promise<CliResult> =>
  new Promise((resolvePromise, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...options.env })) {
      if (v !== undefined && !k.startsWith('CONTACT_IMPORT_')) env[k] = v;
    }
    for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? tempDir(), env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Only so a hung child does not outlive its test: the test's own timeout is the bound, and a
    // run on a loaded machine may well take minutes.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    if (options.stdin instanceof Readable) options.stdin.pipe(child.stdin);
    else if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else child.stdin.end();
  });

export const readReport = (outDir: string): RunReport =>
  JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as RunReport;

export const readIssues = (outDir: string): Record<string, string>[] =>
  parse(readFileSync(join(outDir, 'issues.csv'), 'utf8'), { columns: true }) as Record<string, string>[];

export const readRejected = (path: string): string | undefined =>
  existsSync(path) ? readFileSync(path, 'utf8') : undefined;

/** The invariant every report keeps, whatever its status. */
export const outcomes = (r: RunReport): number =>
  r.totals.rejected +
  r.totals.duplicates +
  r.totals.merged +
  r.totals.created +
  r.totals.updated +
  r.totals.unchanged +
  r.totals.failed +
  r.totals.pending;

export interface TestService {
  service: LocalService;
  key: string;
  client: LocalClient;
  close(): Promise<void>;
}

/** A local service on 127.0.0.1, port 0, with one user, and a client for reading back. */
export const startService = async (options: LocalServiceOptions = {}): Promise<TestService> => {
  const service = await startLocalService({ host: '127.0.0.1', port: 0, ...options });
  const key = service.apiKeys[0]!;
  const client = createLocalClient({
    baseUrl: service.url,
    apiKey: key,
    minRetryDelayMs: 5,
    maxRetryDelayMs: 2000,
  });
  return {
    service,
    key,
    client,
    close: async () => {
      await client.close();
      await service.close();
    },
  };
};

/** `contact-import run <args> --target <svc> --out out` in `cwd`, with the service's key. */
export const runOn = (svc: TestService, args: string[], cwd: string): Promise<CliResult> =>
  runCli(['run', ...args, '--target', svc.service.url, '--out', 'out'], {
    cwd,
    env: { CONTACT_IMPORT_API_KEY: svc.key },
  });

/**
 * `run generic <file> --target <svc>` in the test's own process: for a run a test needs before
 * what it checks (contacts another ledger loaded, a run to undo), where the command line itself is
 * not what it checks (a spawned CLI starts node and loads its bundle again before it reads a row).
 */
export const loadInProcess = (
  svc: TestService,
  file: string,
  dirs: { stateDir: string; outDir: string },
  settings: Omit<RunOptions, 'pipeline' | 'inputs' | 'target' | 'stateDir' | 'outDir'> = {},
): Promise<RunResult> =>
  runImport({
    pipeline: 'generic',
    inputs: [file],
    target: { url: svc.service.url, apiKey: svc.key },
    ...dirs,
    ...settings,
  });
