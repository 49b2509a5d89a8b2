import { API_KEY_ENV, resolveApiKey } from '../../client/api-key.js';
import { parseTargetUrl } from '../../client/target-url.js';
import { isImportError } from '../../core/errors/index.js';
import type { RunResult } from '../../run/run.js';
import { RUN_DEFAULTS } from '../../run/defaults.js';
import type { RunSettingsInput } from '../../run/options.js';
import type { TargetSpec } from '../../run/target.js';
import { formatSummary } from '../../report/summary.js';
import { exitReason, type RunContext } from '../../report/next-step.js';
import { basename, resolve } from 'node:path';
import { hostControls } from '../host-controls.js';
import { createLogger } from '../logger.js';
import { ProgressDisplay, parseProgressInterval } from '../progress.js';
import { restoreStdinDash } from '../stdin-dash.js';
import { invocation } from '../invocation.js';
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
  const controller = stopOnSignals();
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
    // Loaded here, not at startup, so `--help` and `pipelines` answer at once.
    const { runImport } = await import('../../run/run.js');
    const { pipeline, inputs } = await choosePipeline(split, flags);
    pipelineUsed = pipeline;
    const shown = progress;
    result = await runImport({
      pipeline,
      ...settingsOf(flags, numbers, inputs, dryRun),
      ...(target ? { target } : {}),
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
    process.exit(2);
  }
  progress?.stop();
  printOutcome(result, flags, dryRun, pipelineUsed);
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
  region: flags.region || undefined,
  strict: flags.strict,
  reread: flags.reread,
});

/** The first SIGINT or SIGTERM aborts the run gracefully; a second one exits at once. */
const stopOnSignals = (): AbortController => {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGTERM' ? 143 : 130;
    if (controller.signal.aborted) process.exit(code);
    process.stderr.write(
      '\nStopping: requests in flight finish, then the report is written (Ctrl-C again to quit now).\n',
    );
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller;
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
  dryRun: boolean,
  pipelineUsed: string | Pipeline | undefined,
): void => {
  const { report } = result;
  // A run stopped before it read anything has nothing to summarize: its one error line says it all.
  if (report.error && report.totals.read === 0 && !flags.json) {
    process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
    return;
  }
  const files = [
    result.reportPath,
    ...(result.htmlPath ? [result.htmlPath] : []),
    result.issuesPath,
    ...(result.changesPath ? [result.changesPath] : []),
    ...result.rejectedPaths,
  ];
  const next: RunContext = {
    maxRejects: flags.maxRejects ?? RUN_DEFAULTS.maxRejects,
    command: `${invocation()} ${dryRun ? 'validate' : 'run'}`,
    pipeline: typeof pipelineUsed === 'string' ? pipelineUsed : report.pipeline,
    rejectedPaths: result.rejectedPaths,
  };
  if (flags.json) {
    const written = Object.fromEntries(files.map((file) => [basename(file), resolve(file)]));
    const json = { ...report, exitReason: exitReason(report, next), files: written };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatSummary(report, { topIssues: result.topIssues, files, next })}\n`);
    if (result.local && !dryRun) process.stdout.write(localServiceHint(result.local));
  }
  if (report.error) process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
};

const localServiceHint = (local: NonNullable<RunResult['local']>): string =>
  `Data went to the local service's database ${local.db}. To look at it:\n` +
  `  CONTACT_IMPORT_SERVE_KEYS=$(cat ${local.keyFile}) ${invocation()} serve --db ${local.db}\n` +
  `  curl -H "Authorization: Bearer $(cat ${local.keyFile})" http://127.0.0.1:8787/_local/contacts\n`;

/** The pipeline named on the command line, or the built-in detected from the first input's header. */
const choosePipeline = async (
  split: PipelineArgument,
  flags: RunFlags,
): Promise<{ pipeline: string | Pipeline; inputs: string[] }> => {
  if (split.pipeline !== undefined) return { pipeline: split.pipeline, inputs: split.inputs };
  const { detectPipeline } = await import('../../run/detect-pipeline.js');
  const detection = await detectPipeline(split.inputs[0]!, {
    ...(flags.sheet !== undefined ? { sheet: flags.sheet } : {}),
  });
  // One line, never silent; on stderr under --json so stdout stays one JSON document.
  (flags.json ? process.stderr : process.stdout).write(`Detected pipeline ${detection.reason}\n`);
  return { pipeline: detection.pipeline, inputs: split.inputs };
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
