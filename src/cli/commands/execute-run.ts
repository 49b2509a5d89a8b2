import { API_KEY_ENV, resolveApiKey } from '../../client/api-key.js';
import { parseTargetUrl } from '../../client/target-url.js';
import { ImportError, isImportError } from '../../core/errors/index.js';
import type { RunResult } from '../../run/run.js';
import { RUN_DEFAULTS } from '../../run/defaults.js';
import type { RunSettingsInput } from '../../run/options.js';
import type { TargetSpec } from '../../run/target.js';
import { formatSummary } from '../../report/summary.js';
import { exitReason, type RunContext } from '../../report/next-step.js';
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { shellQuote } from '../../report/shell-quote.js';
import { hostControls } from '../host-controls.js';
import { createLogger } from '../logger.js';
import { ProgressDisplay, parseProgressInterval } from '../progress.js';
import { restoreStdinDash } from '../stdin-dash.js';
import { invocation } from '../invocation.js';
import { stopOnSignals } from '../signals.js';
import { preloadUndici } from '../undici-preload.js';
import type { Pipeline } from '../../mapping/pipeline.js';
import { splitPipelineArgument, type PipelineArgument } from './pipeline-argument.js';
import { builtinNames } from '../../mapping/load.js';
import { checkInputsExist, checkTypedNumbers, type CheckedNumbers } from '../flag-values.js';
import type { RunFlags } from './run-options.js';

/**
 * Shared by `run` and `validate`: flags -> runImport -> summary and exit code. Ctrl-C (or SIGTERM)
 * once stops gracefully (exit 130, or 143 for SIGTERM), even while an input waits for data; a
 * second one exits at once.
 */
export const executeRun = async (
  flags: RunFlags,
  dryRun: boolean,
  command: 'run' | 'validate' = 'run',
): Promise<never> => {
  const logger = createLogger(flags.logLevel);
  const controller = stopOnSignals((signal) => {
    // After SIGHUP there is no terminal to tell; the report says it.
    if (signal === 'SIGHUP') return;
    process.stderr.write(
      '\nStopping: requests in flight finish, then the report is written (Ctrl-C again to quit now).\n',
    );
  });
  let progress: ProgressDisplay | undefined;
  let result: RunResult;
  let pipelineUsed: string | Pipeline | undefined;
  try {
    progress = startProgress(flags);
    const numbers = checkTypedNumbers(flags);
    const split = await splitPipelineArgument(restoreStdinDash(flags.inputs), flags.pipeline);
    checkInputsExist(split.inputs, split.pipeline === undefined ? await builtinNames() : []);
    // validate sends nothing: it reads no target, not even CONTACT_IMPORT_TARGET.
    const target = command === 'validate' ? undefined : await resolveTarget(flags, dryRun);
    const { pipeline, named, inputPipelines, inputs } = await choosePipeline(split, flags);
    // Loaded here, not at startup, so `--help` and `pipelines` answer at once; and only once the
    // pipeline fits the inputs, so a run that stops on its inputs never loads the run's modules.
    const { runImport } = await import('../../run/run.js');
    // A run that is not dry sends (to the local service or the target), so it loads undici.
    if (!dryRun) await preloadUndici();
    // Inputs read with different pipelines: the rejected files of each are detected again.
    pipelineUsed = inputPipelines ? '' : (named ?? pipeline);
    const shown = progress;
    result = await runImport({
      pipeline,
      ...(inputPipelines ? { inputPipelines } : {}),
      ...settingsOf(flags, numbers, inputs, dryRun),
      ...(target ? { target } : {}),
      ...legacyClientOf(flags),
      signal: controller.signal,
      stdin: process.stdin,
      logger,
      ...(shown ? { onProgress: (p) => shown.update(p) } : {}),
      hostControls: hostControls(process.env),
    });
  } catch (error) {
    progress?.stop();
    if (!isImportError(error)) throw error;
    process.stderr.write(`contact-import: ${error.code}: ${error.message}\n`);
    // Stopped by Ctrl-C or SIGTERM before the run began (waiting for the target at its probe).
    const stopped = error.code === 'interrupted' && controller.signal.aborted;
    process.exit(stopped ? (controller.signal.reason === 'SIGTERM' ? 143 : 130) : 2);
  }
  progress?.stop();
  printOutcome(result, flags, { dryRun, command }, pipelineUsed);
  process.exit(result.report.exitCode);
};

/**
 * The flags that are run settings, under the settings' names. Absent flags stay undefined: the
 * library checks every setting once and applies its defaults (run/defaults.ts), none are set here.
 */
const settingsOf = (
  flags: RunFlags,
  numbers: CheckedNumbers,
  inputs: string[],
  dryRun: boolean,
): RunSettingsInput => ({
  inputs,
  dryRun,
  sheet: flags.sheet,
  outDir: flags.out || undefined,
  stateDir: flags.state,
  ...numbers,
  match: flags.match,
  candidates: flags.candidates,
  mergeCandidates: flags.mergeCandidates || undefined,
  region: flags.region || undefined,
  strict: flags.strict,
  reread: flags.reread,
  sync: flags.sync,
  maxArchive: flags.maxArchive,
});

/** `--legacy-target` / `--legacy-auth-header`: where E11 goes and the header its key goes in. */
const legacyClientOf = (flags: RunFlags) => {
  if (flags.legacyTarget === undefined && flags.legacyAuthHeader === undefined) return {};
  const baseUrl =
    flags.legacyTarget !== undefined ? parseTargetUrl(flags.legacyTarget, '--legacy-target').url : undefined;
  if (flags.legacyAuthHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(flags.legacyAuthHeader))
    throw new ImportError(
      'usage',
      `--legacy-auth-header must be an HTTP header name such as X-Api-Key, got "${flags.legacyAuthHeader}"`,
    );
  return {
    client: {
      legacy: {
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(flags.legacyAuthHeader !== undefined ? { authHeader: flags.legacyAuthHeader } : {}),
      },
    },
  };
};

/** Nothing beside --json's one document; a plain line every interval when stderr is a log. */
const startProgress = (flags: RunFlags): ProgressDisplay | undefined => {
  const interval = parseProgressInterval(flags.progressInterval);
  if (flags.json || !(process.stderr.isTTY || interval > 0)) return undefined;
  return new ProgressDisplay(process.stderr, {
    tty: Boolean(process.stderr.isTTY),
    intervalMs: interval * 1000,
  });
};

/** The summary (or report.json under --json) on stdout, the run-level error on stderr. */
const printOutcome = (
  result: RunResult,
  flags: RunFlags,
  { dryRun, command }: { dryRun: boolean; command: 'run' | 'validate' },
  pipelineUsed: string | Pipeline | undefined,
): void => {
  const { report } = result;
  // A run stopped before it read anything has nothing to summarize: its one error line says it all.
  if (report.error && report.totals.read === 0 && !flags.json) {
    process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
    return;
  }
  // Only what is on disk: a file whose write failed (a full disk) left nothing to name.
  const files = [
    result.reportPath,
    ...(result.htmlPath ? [result.htmlPath] : []),
    result.issuesPath,
    result.outcomesPath,
    ...(result.changesPath ? [result.changesPath] : []),
    ...result.rejectedPaths,
  ].filter((file) => existsSync(file));
  const next: RunContext = {
    maxRejects: flags.maxRejects ?? RUN_DEFAULTS.maxRejects,
    command: `${invocation()} ${dryRun && command === 'validate' ? 'validate' : 'run'}${dryRun && command === 'run' ? ' --dry-run' : ''}`,
    pipeline: typeof pipelineUsed === 'string' ? pipelineUsed : report.pipeline,
    rejectedPaths: result.rejectedPaths,
    replayFlags: replayFlags(flags, command),
  };
  if (flags.json) {
    const written = Object.fromEntries(files.map((file) => [basename(file), resolve(file)]));
    const json = { ...report, exitReason: exitReason(report, next), files: written };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatSummary(report, { topIssues: result.topIssues, files, next })}\n`);
    if (process.platform === 'win32' && report.exitCode === 1 && result.rejectedPaths.length > 0) {
      process.stdout.write(
        '(The Next: command is quoted for a POSIX shell: Git Bash or WSL, not cmd.exe.)\n',
      );
    }
    if (result.local && !dryRun) process.stdout.write(localServiceHint(result.local));
  }
  if (report.error) process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
};

const localServiceHint = (local: NonNullable<RunResult['local']>): string =>
  `Data went to the local service's database ${local.db}. To look at it:\n` +
  `  CONTACT_IMPORT_SERVE_KEYS=$(cat ${shellQuote(local.keyFile)}) ${invocation()} serve --db ${shellQuote(local.db)}\n` +
  `  curl -H "Authorization: Bearer $(cat ${shellQuote(local.keyFile)})" http://127.0.0.1:8787/_local/contacts\n`;

/**
 * The options a run of the rejected records needs to go where this run went and judge them
 * alike: target, key file (never the key), state, and the settings that change what is sent.
 * Not --out (the next run gets its own folder; this one holds the file it reads), nor --sheet
 * (a workbook's rejects are CSV), nor how this run printed (--json, --log-level, progress).
 */
const replayFlags = (flags: RunFlags, command: 'run' | 'validate'): string[] => {
  const target = command === 'run' ? (flags.target ?? process.env.CONTACT_IMPORT_TARGET) : undefined;
  const valued: [string, string | undefined][] = [
    ['--target', target],
    ['--api-key-file', command === 'run' ? flags.apiKeyFile : undefined],
    ['--state', flags.state],
    ['--region', flags.region || undefined],
    ['--match', flags.match],
    ['--max-rejects', flags.maxRejects],
    ['--max-body-bytes', flags.maxBodyBytes],
    ['--chunk-size', flags.chunkSize],
    ['--concurrency', flags.concurrency],
    ['--timeout', flags.timeout],
  ];
  return [
    ...valued.flatMap(([flag, value]) => (value === undefined ? [] : [flag, value])),
    ...(flags.strict ? ['--strict'] : []),
  ];
};

/**
 * The pipeline named on the command line (checked against each input; `named` as it was given),
 * or the built-in detected from each input's own header: `inputPipelines` when they are not all
 * the same. runImport is handed the pipeline loaded here, so its file is read and checked once.
 */
const choosePipeline = async (
  split: PipelineArgument,
  flags: RunFlags,
): Promise<{ pipeline: Pipeline; named?: string; inputPipelines?: Pipeline[]; inputs: string[] }> => {
  const { choosePipelines } = await import('../../run/detect-pipeline.js');
  const options = flags.sheet !== undefined ? { sheet: flags.sheet } : {};
  if (split.pipeline !== undefined) {
    const { loadPipeline } = await import('../../mapping/load.js');
    const pipeline = await loadPipeline(split.pipeline);
    await choosePipelines(split.inputs, pipeline, options);
    return { pipeline, named: split.pipeline, inputs: split.inputs };
  }
  const detections = await choosePipelines(split.inputs, undefined, options);
  // One line an input, never silent; on stderr under --json so stdout stays one JSON document.
  for (const detection of detections)
    (flags.json ? process.stderr : process.stdout).write(`Detected pipeline ${detection.reason}\n`);
  const pipelines = detections.map((detection) => detection.pipeline);
  const [first] = pipelines;
  const alike = pipelines.every((pipeline) => pipeline.name === first!.name);
  return { pipeline: first!, ...(alike ? {} : { inputPipelines: pipelines }), inputs: split.inputs };
};

/**
 * The key never comes from a flag value (shell history, process lists): environment or file. The
 * URL is checked first, so a mistyped one stops the run before anything is read or written.
 */
const resolveTarget = async (flags: RunFlags, dryRun: boolean): Promise<TargetSpec | undefined> => {
  const given = flags.target ?? process.env.CONTACT_IMPORT_TARGET;
  if (!given) return undefined;
  void dryRun;
  const { url } = parseTargetUrl(given, flags.target !== undefined ? '--target' : 'CONTACT_IMPORT_TARGET');
  const apiKey = await resolveApiKey({
    env: process.env,
    ...(flags.apiKeyFile ? { file: flags.apiKeyFile } : {}),
  });
  return { url, apiKey, keySource: flags.apiKeyFile ? `--api-key-file ${flags.apiKeyFile}` : API_KEY_ENV };
};
