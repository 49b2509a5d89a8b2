import { targetLabel } from '../client/target-url.js';
import type { RequestError } from '../client/errors.js';
import {
  describeIoProblem,
  ImportError,
  isImportError,
  RUN_CODES,
  type RunCode,
} from '../core/errors/index.js';
import type { IssueCount, Totals } from '../core/types.js';
import type { InputInfo } from '../readers/types.js';
import type { FieldCount } from '../report/types.js';
import { issueSummary } from '../report/html/index.js';
import { emptyTotals, outcomesTotal, type RunReport, type RunStatus } from '../report/run-report.js';
import type { RunSnapshot } from '../state/index.js';
import type { HashedInput } from './fingerprint.js';
import { exitReason } from '../report/next-step.js';
import { rejectLimit, type RunSettings } from './options.js';
import { outputsOf } from './rerun-shortcut.js';
import { targetBusy } from './target.js';
import { droppedWholeCount } from '../report/dropped-columns.js';
import type { ExtractResult } from './extract-stage.js';
import { pipelinesName, type RunFrame } from './run-frame.js';
import type { LoadResult, OpenResult, ShortcutResult } from './stages.js';
import type { SyncResult } from './sync-stage.js';

/** docs/design.md exit codes: 2 is a run that could not start or was stopped. */
export const EXIT = {
  ok: 0,
  rejects: 1,
  stopped: 2,
  internal: 70,
  interrupted: 130,
  terminated: 143,
} as const;

/** The run's files once its outputs are closed: issues.csv, the rejected files, issue counts. */
export interface RunFiles {
  issuesPath: string;
  /** outcomes.csv: one row per record read. */
  outcomesPath: string;
  rejectedPaths: string[];
  topIssues: IssueCount[];
  topFields: FieldCount[];
  /** Warnings other than duplicates (a value dropped or replaced, the record still loaded). */
  warnings: number;
}

/** Every stage's result, as the run composed them; absent: the stage did not run. */
export interface StageResults {
  open: OpenResult;
  shortcut?: ShortcutResult;
  extract?: ExtractResult;
  load?: LoadResult;
  /** Closing and writing the run's files (issues.csv, rejected files, changes.csv, report.html). */
  outputs?: { error?: unknown };
  sync?: SyncResult;
}

/** How the run ended: the first stage error stops it (aborted), a stop signal interrupts it. */
export const endOf = (
  stages: StageResults,
  signal: AbortSignal | undefined,
): { status: RunStatus; failure?: ImportError } => {
  const error = [stages.open, stages.shortcut, stages.extract, stages.sync, stages.load, stages.outputs].find(
    (stage) => stage?.error !== undefined,
  )?.error;
  if (error === undefined) return { status: signal?.aborted ? 'interrupted' : 'completed' };
  if (signal?.aborted && !isImportError(error)) return { status: 'interrupted' };
  return { status: 'aborted', failure: asImportError(error) };
};

/**
 * read = rejected + duplicates + merged + created + updated + unchanged + failed + pending: each stage's
 * counts added up; a record read that reached no outcome (the run stopped first) was not sent.
 */
export const totalsOf = (stages: StageResults, warnings: number): Totals => {
  const reused = stages.shortcut?.outcome?.totals;
  const totals: Totals = reused ? { ...reused } : { ...emptyTotals(), warnings };
  for (const counts of [stages.extract?.counts, stages.load?.counts]) {
    for (const [key, value] of Object.entries(counts ?? {})) totals[key as keyof Totals] += value;
  }
  totals.pending += totals.read - outcomesTotal(totals);
  return totals;
};

const exitCodeOf = (
  { status, failure }: ReturnType<typeof endOf>,
  totals: Totals,
  inputs: InputInfo[],
  run: RunFrame,
): RunReport['exitCode'] => {
  if (status === 'interrupted') return interruptedExitCode(run.options.signal?.reason);
  if (status === 'aborted') return failure?.code === 'internal_error' ? EXIT.internal : EXIT.stopped;
  const { settings } = run;
  const tooMany =
    totals.rejected + totals.failed + droppedWholeCount(inputs) >
    rejectLimit(settings.maxRejects, totals.read);
  // --strict: an input with no record at all is a failure too.
  const empty = settings.strict && inputs.some((input) => input.rows === 0);
  return tooMany || empty ? EXIT.rejects : EXIT.ok;
};

/** report.json, built in this one place from the stages' results. */
export const buildRunReport = (
  run: RunFrame,
  stages: StageResults,
  files: RunFiles,
  requests: RunReport['requests'],
): RunReport => {
  const end = endOf(stages, run.options.signal);
  const { status, failure } = end;
  const reused = stages.shortcut?.outcome;
  const outcome = stages.load?.outcome;
  const inputs = reused?.inputs ?? stages.extract?.inputs ?? [];
  const totals = totalsOf(stages, files.warnings);
  const finished = new Date();
  const { target } = stages.open;
  const none = { created: 0, existing: 0 };
  const report: RunReport = {
    runId: run.runId,
    pipeline: pipelinesName(run),
    dryRun: run.settings.dryRun,
    target: target?.label ?? (run.options.target ? targetLabel(run.options.target.url) : 'local'),
    status,
    startedAt: run.started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - run.started.getTime(),
    inputs,
    totals,
    groups: reused?.groups ?? outcome?.references.groups ?? none,
    customFields: reused?.customFields ?? outcome?.references.customFields ?? none,
    reminders: outcome?.reminders ?? { created: 0, updated: 0 },
    requests,
    exitCode: exitCodeOf(end, totals, inputs, run),
    ...(reused && stages.open.previous ? { inputsUnchangedSince: stages.open.previous.runId } : {}),
    issues: issueSummary(files.topIssues, files.topFields),
    ...(outcome?.continues ? { continues: outcome.continues } : {}),
    ...(outcome?.searched ? { searched: outcome.searched } : {}),
    ...(stages.extract?.stoppedAt ? { readingStopped: stages.extract.stoppedAt } : {}),
    ...(stages.sync?.counts ? { sync: stages.sync.counts } : {}),
    ...(stages.extract?.candidates ? { candidates: stages.extract.candidates.counts } : {}),
    ...(failure ? { error: { code: failure.code, message: failure.message, context: failure.context } } : {}),
  };
  // report.json says why the run ended with its exit code, as the summary's last line does.
  return { ...report, exitReason: exitReason(report, { maxRejects: thresholdText(run.settings) }) };
};

/** `--max-rejects` as a person writes it: `5` or `2%`. */
const thresholdText = ({ maxRejects }: RunSettings): string =>
  'count' in maxRejects ? String(maxRejects.count) : `${maxRejects.percent}%`;

/** What the next run needs to tell whether it may reuse this one's outcome (rerun-shortcut.ts). */
export const snapshotOf = async (run: {
  definition: string;
  hashed: HashedInput[];
  outDir: string;
  reused: RunSnapshot['outputs'] | undefined;
  files: RunFiles;
}): Promise<RunSnapshot | undefined> => {
  const { files } = run;
  const outputs = run.reused ?? (await outputsOf(run.outDir, files.issuesPath, files.rejectedPaths));
  if (!outputs) return undefined;
  return {
    definition: run.definition,
    inputs: run.hashed.map((h) => h.fingerprint),
    outDir: run.outDir,
    outputs,
    topIssues: files.topIssues,
  };
};

/** Anything that stops a run is reported as a run-level code; unknown errors are `service_error`. */
export const asImportError = (error: unknown): ImportError => {
  if (isImportError(error)) return error;
  // By name, not class: a RequestError from another copy of the client is one too.
  const e = error as Partial<RequestError> | undefined;
  if (e?.name === 'RequestError') {
    if (e.status === 401)
      return new ImportError('auth_failed', `the target refused the API key: ${e.message}`);
    if (e.code === 'target_busy') return targetBusy({ message: e.message ?? '' });
    if (e.retryable)
      return new ImportError('retries_exhausted', `a request kept failing after every retry: ${e.message}`);
    // Client codes that are run codes (response_too_large) keep their name; the rest are the service's.
    const code: RunCode = e.code !== undefined && e.code in RUN_CODES ? (e.code as RunCode) : 'service_error';
    return new ImportError(code, e.message ?? 'the service failed');
  }
  // A full disk, a read-only mount, no permission: the machine's state, said in one line (exit 2).
  const io = describeIoProblem(error);
  if (io !== undefined) return new ImportError('io_error', io, {}, { cause: error });
  // Anything else is a bug: exit 70, the stack in the log at debug.
  const message = error instanceof Error ? error.message : String(error);
  return new ImportError('internal_error', `an unexpected error: ${message}`, {}, { cause: error });
};

/**
 * The exit code of a run stopped by a signal: 143 for SIGTERM and SIGHUP (the session went away:
 * stopped from outside, as SIGTERM), 130 for Ctrl-C and any other reason.
 */
export const interruptedExitCode = (reason: unknown): number =>
  reason === 'SIGTERM' || reason === 'SIGHUP' ? EXIT.terminated : EXIT.interrupted;
