import { randomBytes } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import type { RunCandidates } from '../candidates/people.js';
import { loadPipeline } from '../mapping/load.js';
import type { Pipeline } from '../mapping/pipeline.js';
import { runModel } from '../report/html/index.js';
import type { CandidatesModel } from '../report/html/model.js';
import { ProgressSampler, type ProgressSample } from '../report/progress-samples.js';
import type { RunReport } from '../report/run-report.js';
import { acquireRunLock, openRunWork, type RunWork } from '../state/index.js';
import { withSheet } from './sheet-option.js';
import { mergeChoiceOf } from './candidate-merges.js';
import { assertPhoneRegions } from './phone-region.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  parseRunSettings,
  type RunSettings,
  type RunSettingsInput,
} from './options.js';
import { definitionFingerprint, inputsUntouched } from './fingerprint.js';
import {
  outputPathsOf,
  prepareOutDir,
  removeOutput,
  RunOutputs,
  writeHtmlReportFile,
  writeReportFile,
} from '../report/run-outputs.js';
import { assertOutputsSpareInputs, stateFilesOf } from './input-guard.js';
import type { RunOptions, RunResult } from './run-types.js';
import {
  connectRunTarget,
  extractAndLoadStages,
  openStage,
  settleUnreached,
  shortcutStage,
} from './stages.js';
import type { RunFrame } from './run-frame.js';
import { buildRunReport, endOf, snapshotOf, type RunFiles, type StageResults } from './report-of.js';

export { EXIT, interruptedExitCode } from './report-of.js';
export type { RunOptions, RunProgress, RunResult } from './run-types.js';

export const newRunId = (now: Date): string =>
  `${now
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;

/** The keys of RunOptions that are not settings; every other key is checked by options.ts. */
const NOT_SETTINGS: Record<Exclude<keyof RunOptions, keyof RunSettingsInput>, true> = {
  pipeline: true,
  inputPipelines: true,
  target: true,
  signal: true,
  stdin: true,
  logger: true,
  onProgress: true,
  client: true,
  hooks: true,
  hostControls: true,
};

/**
 * A whole run: source -> map -> normalize -> validate -> dedupe -> resolve -> load -> report.
 * Throws only when the run cannot start (options, pipeline file, output folder, an output that is
 * an input, a service given by URL that cannot be reached or refuses the key, a state directory
 * another run holds), before anything is written; every later problem ends in a report with status
 * `aborted` and exit code 2. Never reads argv, never exits.
 */
export const runImport = async (options: RunOptions): Promise<RunResult> => {
  const settings = parseRunSettings(options, Object.keys(NOT_SETTINGS));
  const load = async (given: string | Pipeline): Promise<Pipeline> =>
    withSheet(typeof given === 'string' ? await loadPipeline(given) : given, settings.sheet, settings.inputs);
  // A reviewed candidates.csv is checked before anything is read or written (header, decisions).
  const mergeChoice = mergeChoiceOf(settings.mergeCandidates);
  const pipeline = await load(options.pipeline);
  const pipelines = options.inputPipelines
    ? await Promise.all(options.inputPipelines.map(load))
    : settings.inputs.map(() => pipeline);
  if (pipelines.length !== settings.inputs.length)
    throw new ImportError(
      'config_invalid',
      `inputPipelines names ${pipelines.length} pipelines for ${settings.inputs.length} inputs; expected one per input`,
    );
  // Numbers written for another country than the region would all be dropped: said before anything is written.
  await assertPhoneRegions(settings.inputs, pipelines, settings.region, options.signal);
  const started = new Date();
  const runId = newRunId(started);
  const outDir = resolve(settings.outDir ?? join('runs', runId));
  assertOutputsSpareInputs(settings.inputs, [
    ...outputPathsOf(outDir, settings.inputs),
    ...stateFilesOf(settings.stateDir),
  ]);
  // A service given by URL is checked before anything is written: a wrong address, a refused
  // connection or key stops the run here (one ImportError), with no runs/ or state folder made.
  const connected = options.target ? await connectRunTarget(settings, options) : undefined;
  let handedOver = false;
  try {
    // A run that may write to the target holds its state directory from here to its last ledger
    // write; a dry run only reads the ledger and takes no lock.
    const lock = settings.dryRun
      ? undefined
      : await acquireRunLock(settings.stateDir, { runId, since: started });
    let work: RunWork | undefined;
    try {
      // Every run, dry or not, keeps its scratch files in the state directory, never in the
      // system's temp folder; the next run removes what a killed one left (state/run-work.ts).
      work = openRunWork(settings.stateDir, runId);
      handedOver = true;
      return await runHoldingState({
        settings,
        pipeline,
        pipelines,
        started,
        runId,
        outDir,
        workDir: work.dir,
        options,
        log: options.logger,
        ...(connected ? { connected } : {}),
        ...(mergeChoice ? { mergeChoice } : {}),
      });
    } finally {
      work?.close();
      lock?.release();
    }
  } finally {
    // Once the stages hold it they close it; before that (the state folder held elsewhere), here.
    if (!handedOver) await connected?.close();
  }
};

/**
 * The run as the list of its stages, each returning its result: open (target, ledger, rerun
 * shortcut) -> shortcut, or extract -> load -> outputs closed -> report built from the results
 * (report-of.ts) -> report files and the ledger's record of the run.
 */
const runHoldingState = async (frame: Omit<RunFrame, 'definition'>): Promise<RunResult> => {
  // The files are opened only once the run knows it reads its inputs: a rerun into the same
  // --out must not truncate the issues.csv it is about to reuse.
  prepareOutDir(frame.outDir);
  const run: RunFrame = { ...frame, ...definitionOf(frame.settings, frame.pipeline, frame.pipelines) };
  const { stages, samples } = await runStages(run);
  const files = await closeOutputs(run, stages);
  const requests = stages.open.target?.client?.stats() ?? { sent: 0, retried: 0, failed: 0, byEndpoint: {} };
  let report = buildRunReport(run, stages, files, requests);
  const changes = stages.load?.changes;
  const html = writeHtmlReportFile(
    run.outDir,
    runModel(report, {
      codes: files.topIssues,
      fields: files.topFields,
      issuesPath: files.issuesPath,
      samples,
      ...(changes ? { changes: changes.model() } : {}),
      ...candidatesModel(stages.extract?.candidates),
    }),
  );
  // A page that cannot be written is an output that failed: the run says so (exit 2), not exit 0.
  if ('error' in html) {
    stages.outputs = { error: stages.outputs?.error ?? html.error };
    report = buildRunReport(run, stages, files, requests);
  }
  const htmlPath = 'path' in html ? html.path : undefined;
  let reportPath: string;
  try {
    reportPath = writeReportFile(run.outDir, report);
  } catch (error) {
    // No report.json: the page beside it would tell a story no file backs; the ledger still ends the run.
    if (htmlPath) removeOutput(htmlPath);
    await recordRun(run, stages, files, report);
    throw error;
  }
  await recordRun(run, stages, files, report);
  const { status, totals, exitCode } = report;
  run.log?.info({ runId: run.runId, status, totals, exitCode }, 'run finished');
  const local = stages.open.target?.local;
  return {
    report,
    outDir: run.outDir,
    reportPath,
    ...(htmlPath ? { htmlPath } : {}),
    ...(changes ? { changesPath: changes.path } : {}),
    issuesPath: files.issuesPath,
    outcomesPath: files.outcomesPath,
    rejectedPaths: files.rejectedPaths,
    topIssues: files.topIssues,
    ...(local ? { local: { db: local.db, keyFile: local.keyFile } } : {}),
  };
};

/** The fingerprint a later run compares with to reuse this one; a dry run leaves none. */
const definitionOf = (
  settings: RunSettings,
  pipeline: Pipeline,
  pipelines: readonly Pipeline[],
): { definition?: string } =>
  // A run that merges candidates is never reused: its outcome hangs on the reviewed file too.
  settings.dryRun || settings.mergeCandidates !== undefined
    ? {}
    : {
        definition: definitionFingerprint({
          pipeline,
          ...(pipelines.some((other) => other !== pipeline) ? { inputPipelines: pipelines } : {}),
          ...(settings.region ? { region: settings.region } : {}),
          strict: settings.strict,
          match: settings.match,
          ...(settings.maxBodyBytes !== DEFAULT_MAX_BODY_BYTES
            ? { maxBodyBytes: settings.maxBodyBytes }
            : {}),
          ...(settings.sync !== undefined ? { sync: settings.sync } : {}),
        }),
      };

/**
 * open -> (shortcut | extract -> load). A stage runs only when those before it ended without an
 * error; progress is sampled on a timer for report.html, so counting costs the hot path nothing.
 */
const runStages = async (run: RunFrame): Promise<{ stages: StageResults; samples: ProgressSample[] }> => {
  const { options } = run;
  const live = { read: 0, loaded: 0 };
  let stages: StageResults = { open: {} };
  const sampler = new ProgressSampler(() => {
    const stats = stages.open.target?.client?.stats();
    return { ...live, requests: stats?.sent ?? 0, retries: stats?.retried ?? 0 };
  }).start();
  const onRead = (done: number, bytes: number, totalBytes: number | undefined) => {
    live.read = done;
    options.hooks?.onStep?.('read');
    options.onProgress?.({ phase: 'read', done, bytes, totalBytes });
  };
  // A run that loads while it reads shows reading until it ends (one phase at a time), then the load.
  let reading = true;
  const onLoad = (done: number, total: number) => {
    live.loaded = done;
    if (!reading) options.onProgress?.({ phase: 'load', done, total });
  };
  let samples: ProgressSample[] | undefined;
  try {
    stages = { open: await openStage(run) };
    const { target, ledger, previous, error } = stages.open;
    if (error === undefined && target) {
      const opened = { target, ...(ledger ? { ledger } : {}) };
      if (previous) stages.shortcut = await shortcutStage(run, previous);
      else {
        const onReadEnd = () => (reading = false);
        Object.assign(stages, await extractAndLoadStages(run, opened, { onRead, onLoad, onReadEnd }));
      }
    }
    samples = stopSampling(sampler, live, stages);
  } finally {
    samples ??= sampler.stop();
    if (stages.extract) settleUnreached(stages.extract);
    stages.extract?.staging.close();
    try {
      stages.load?.changes?.close();
    } catch (error) {
      stages.outputs = { error };
    }
    await stages.open.target?.close();
  }
  logEnd(run, stages);
  return { stages, samples };
};

/** The last sample is the final state: what was loaded, as the load counted it. */
const stopSampling = (
  sampler: ProgressSampler,
  live: { read: number; loaded: number },
  stages: StageResults,
) => {
  const counts = stages.load?.counts;
  if (counts) live.loaded = counts.created + counts.updated + counts.unchanged;
  if (stages.extract) live.read = stages.extract.counts.read;
  return sampler.stop();
};

/** The command layer prints the one clear line; the log keeps the detail at info. */
const logEnd = (run: RunFrame, stages: StageResults): void => {
  const stopped = [stages.open, stages.shortcut, stages.extract, stages.sync, stages.load].some(
    (s) => s?.error !== undefined,
  );
  if (!stopped) return;
  const { failure } = endOf(stages, run.options.signal);
  run.log?.info({ runId: run.runId, code: failure?.code }, failure?.message ?? 'run interrupted');
  // A bug: its stack for whoever reports it (the command line shows it at --log-level debug).
  if (failure?.code === 'internal_error') run.log?.debug({ runId: run.runId, err: failure.cause }, 'stack');
};

/** issues.csv and the rejected files, closed; or the earlier run's, copied by the shortcut. */
const closeOutputs = async (run: RunFrame, stages: StageResults): Promise<RunFiles> => {
  const reused = stages.shortcut?.outcome;
  if (reused) {
    const { issuesPath, outcomesPath, rejectedPaths, topIssues, topFields } = reused;
    return {
      issuesPath,
      outcomesPath,
      rejectedPaths,
      topIssues,
      topFields,
      warnings: reused.totals.warnings,
    };
  }
  // A run stopped before it opened its files (or whose shortcut failed) still leaves them all.
  const outputs =
    stages.extract?.outputs ?? new RunOutputs(run.outDir, run.settings.inputs.length, run.workDir);
  try {
    await outputs.close();
  } catch (error) {
    stages.outputs = { error: stages.outputs?.error ?? error };
  }
  const topIssues = outputs.issues.topCodes();
  return {
    issuesPath: outputs.issues.path,
    outcomesPath: outputs.outcomes.path,
    rejectedPaths: outputs.rejectedPaths(),
    topIssues,
    topFields: outputs.issues.topFields(),
    warnings: topIssues.reduce(
      (n, c) => (c.severity === 'warning' && c.code !== 'duplicate' ? n + c.count : n),
      0,
    ),
  };
};

/** The ledger's record of the run, with what the next run needs to reuse it when it may. */
const recordRun = async (run: RunFrame, stages: StageResults, files: RunFiles, report: RunReport) => {
  const { ledger, hashed } = stages.open;
  if (!ledger) return;
  const reusable =
    report.status === 'completed' && hashed && run.definition && (await inputsUntouched(hashed));
  const snapshot = reusable
    ? await snapshotOf({
        definition: run.definition!,
        hashed: hashed!,
        outDir: run.outDir,
        reused: stages.shortcut?.outcome?.outputs,
        files,
      })
    : undefined;
  ledger.finishRun(run.runId, report, snapshot);
  ledger.close();
};

/** report.html's candidates section: report.json's counts and the best pairs. */
const candidatesModel = (candidates: RunCandidates | undefined): { candidates?: CandidatesModel } =>
  candidates
    ? { candidates: { ...candidates.counts, rows: candidates.shown, file: basename(candidates.path) } }
    : {};
