import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ClientOptions } from '../client/index.js';
import { targetLabel } from '../client/target-url.js';
import { ImportError, isImportError, RUN_CODES, type RunCode } from '../core/errors/index.js';
import { loadPipeline, type Pipeline } from '../mapping/index.js';
import { issueSummary, runModel } from '../report/html/index.js';
import { ProgressSampler, type ProgressSample } from '../report/progress-samples.js';
import { emptyTotals, outcomesTotal, type RunReport, type RunStatus } from '../report/run-report.js';
import { acquireRunLock, openLedger, type Ledger, type RunSnapshot } from '../state/index.js';
import { extract } from './extract.js';
import { withSheet } from './sheet-option.js';
import type { RunHooks } from './hooks.js';
import { load, type LoadOutcome } from '../load/index.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  parseRunSettings,
  rejectLimit,
  type RunSettings,
  type RunSettingsInput,
} from './options.js';
import { definitionFingerprint, hashInputs, inputsUntouched, type HashedInput } from './fingerprint.js';
import { outputPathsOf, prepareOutDir, RunOutputs, writeHtmlReportFile, writeReportFile } from './outputs.js';
import { assertOutputsSpareInputs, stateFilesOf } from './input-guard.js';
import { References } from '../package/references.js';
import {
  applyShortcut,
  decideShortcut,
  outputsOf,
  type PreviousRun,
  type ShortcutOutcome,
} from './rerun-shortcut.js';
import { Staging } from '../package/staging.js';
import { ChangesFile } from '../report/changes-file.js';
import { connectTarget, type ConnectedTarget, type TargetSpec } from './target.js';
import { inTargetTurn } from './target-turn.js';
import type { FieldCount, InputInfo, IssueCount } from '../core/types.js';

export interface RunProgress {
  phase: 'read' | 'load';
  done: number;
  total?: number;
}

export interface RunOptions extends RunSettingsInput {
  /** A built-in pipeline name, a path to a YAML file, or a loaded pipeline. */
  pipeline: string | Pipeline;
  /** Absent: the local service, in-process, with its database in the state directory. */
  target?: TargetSpec;
  /**
   * Graceful stop (Ctrl-C): nothing new starts, requests in flight finish, the report says
   * `interrupted`, exit code 130; 143 when aborted with the reason `'SIGTERM'` (as a shell reports
   * a terminated process).
   */
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  logger?: Logger;
  onProgress?: (progress: RunProgress) => void;
  /** Transport settings for the client (timeouts, retries); the URL and key come from `target`. */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>>;
  /** Observation points for tests (hooks.ts); the command line sets none. */
  hooks?: RunHooks;
}

export interface RunResult {
  report: RunReport;
  outDir: string;
  reportPath: string;
  /** report.html beside report.json; absent only if it could not be written (logged). */
  htmlPath?: string;
  issuesPath: string;
  /** changes.csv: written when the run resolved against a target (it could see the contacts). */
  changesPath?: string;
  rejectedPaths: string[];
  topIssues: IssueCount[];
  /** Where the data went when the run used the local service. */
  local?: { db: string; keyFile: string };
}

/** DESIGN.md exit codes: 2 is a run that could not start or was stopped. */
export const EXIT = { ok: 0, rejects: 1, stopped: 2, interrupted: 130, terminated: 143 } as const;

export const newRunId = (now: Date): string =>
  `${now
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d{3}Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;

/**
 * A whole run: source -> map -> normalize -> validate -> dedupe -> resolve -> load -> report.
 * Throws only when the run cannot start (options, pipeline file, output folder, an output that is
 * an input, a state directory another run holds); every later problem ends in a report with status
 * `aborted` and exit code 2. Never reads argv, never exits.
 */
export const runImport = async (options: RunOptions): Promise<RunResult> => {
  const settings = parseRunSettings(options);
  const loaded =
    typeof options.pipeline === 'string' ? await loadPipeline(options.pipeline) : options.pipeline;
  const pipeline = withSheet(loaded, settings.sheet, settings.inputs);
  const started = new Date();
  const runId = newRunId(started);
  const outDir = resolve(settings.outDir ?? join('runs', runId));
  assertOutputsSpareInputs(settings.inputs, [
    ...outputPathsOf(outDir, settings.inputs),
    ...stateFilesOf(settings.stateDir),
  ]);
  // A run that may write to the target holds its state directory from here to its last ledger
  // write; a dry run only reads the ledger and takes no lock.
  const lock = settings.dryRun
    ? undefined
    : await acquireRunLock(settings.stateDir, { runId, since: started });
  try {
    return await runHoldingState(options, { settings, pipeline, started, runId, outDir });
  } finally {
    lock?.release();
  }
};

const runHoldingState = async (
  options: RunOptions,
  run: { settings: RunSettings; pipeline: Pipeline; started: Date; runId: string; outDir: string },
): Promise<RunResult> => {
  const { settings, pipeline, started, runId, outDir } = run;
  // The files are opened only once the run knows it reads its inputs: a rerun into the same
  // --out must not truncate the issues.csv it is about to reuse.
  prepareOutDir(outDir);
  const definition = settings.dryRun
    ? undefined
    : definitionFingerprint({
        pipeline,
        ...(settings.region ? { region: settings.region } : {}),
        strict: settings.strict,
        match: settings.match,
        ...(settings.maxBodyBytes !== DEFAULT_MAX_BODY_BYTES ? { maxBodyBytes: settings.maxBodyBytes } : {}),
      });
  const totals = emptyTotals();
  const references = new References();
  const log = options.logger;
  let target: ConnectedTarget | undefined;
  // Read on a timer, not per record: the course of the run for report.html costs the hot path nothing.
  const sampler = new ProgressSampler(() => {
    const stats = target?.client?.stats();
    return {
      read: totals.read,
      loaded: totals.created + totals.updated + totals.unchanged,
      requests: stats?.sent ?? 0,
      retries: stats?.retried ?? 0,
    };
  }).start();
  let samples: ProgressSample[] = [];

  let status: RunStatus = 'completed';
  let failure: ImportError | undefined;
  let inputs: InputInfo[] = [];
  const opened: InputInfo[] = [];
  let ledger: Ledger | undefined;
  let outcome: LoadOutcome | undefined;
  let outputs: RunOutputs | undefined;
  let staging: Staging | undefined;
  let changes: ChangesFile | undefined;
  let hashed: HashedInput[] | undefined;
  let previous: PreviousRun | undefined;
  let shortcut: ShortcutOutcome | undefined;
  try {
    target = await connectTarget({
      ...(options.target ? { target: options.target } : {}),
      stateDir: settings.stateDir,
      dryRun: settings.dryRun,
      // The client's own limit is the run's --concurrency: the load window alone cannot raise it.
      client: {
        concurrency: settings.concurrency,
        ...(settings.timeout !== undefined ? { timeoutMs: Math.round(settings.timeout * 1000) } : {}),
        ...options.client,
      },
    });
    if (target.scopeId) {
      ledger = openLedger({ dir: settings.stateDir });
      if (definition) {
        hashed = await hashInputs(settings.inputs, options.signal);
        if (hashed && !settings.reread) {
          const decision = await decideShortcut({
            ledger,
            scopeId: target.scopeId,
            definition,
            inputs: hashed.map((h) => h.fingerprint),
            targetEmpty: target.empty,
          });
          if (decision.use) previous = decision.previous;
          else log?.debug({ runId, reason: decision.reason }, 'reading the inputs');
        }
      }
      ledger.startRun({
        runId,
        scopeId: target.scopeId,
        pipeline: pipeline.name,
        inputs: settings.inputs,
        dryRun: settings.dryRun,
        startedAt: started.toISOString(),
      });
    }
    log?.info(
      { runId, pipeline: pipeline.name, target: target.label, dryRun: settings.dryRun },
      'run started',
    );
    if (previous) {
      shortcut = await applyShortcut(previous, outDir);
      inputs = shortcut.inputs;
      Object.assign(totals, shortcut.totals);
      log?.info(
        { runId, inputsUnchangedSince: previous.runId },
        `inputs unchanged since run ${previous.runId}: nothing read, nothing sent`,
      );
    } else {
      outputs = new RunOutputs(outDir, settings.inputs.length);
      const scope = ledger && target.scopeId ? ledger.scope(target.scopeId) : undefined;
      const countOnly =
        settings.dryRun &&
        pipeline.spec.reminders.length === 0 &&
        !(scope?.hasContacts() ?? false) &&
        (target.client === undefined || settings.match === 'none' || target.empty);
      // Nothing to compare with and nothing to search: every identity would be created, so the
      // records themselves are not kept, only where they came from.
      staging = new Staging({ keysOnly: countOnly });
      inputs = await extract(
        {
          pipeline,
          inputs: settings.inputs,
          ...(settings.region ? { region: settings.region } : {}),
          strict: settings.strict,
          maxBodyBytes: settings.maxBodyBytes,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.stdin ? { stdin: options.stdin } : {}),
          ...(options.hooks?.workerExitAt ? { workerExitAt: options.hooks.workerExitAt } : {}),
          onRecord: (done) => {
            options.hooks?.onStep?.('read');
            options.onProgress?.({ phase: 'read', done });
          },
        },
        { outputs, staging, totals, references, opened },
      );
      const connected = target;
      // Only a target's answers show a contact's values: without one there is nothing to compare.
      if (target.client && !countOnly) changes = new ChangesFile(join(outDir, 'changes.csv'));
      outcome = await inTargetTurn(
        { target, runId, since: started, dryRun: settings.dryRun, signal: options.signal, log },
        (targetWasEmpty) =>
          load(
            {
              ...(connected.client ? { client: connected.client } : {}),
              ...(scope ? { scope } : {}),
              dryRun: settings.dryRun,
              runId,
              chunkSize: settings.chunkSize,
              maxBodyBytes: settings.maxBodyBytes,
              concurrency: settings.concurrency,
              match: settings.match,
              targetWasEmpty,
              ...(options.signal ? { signal: options.signal } : {}),
              onProgress: (done, total) => options.onProgress?.({ phase: 'load', done, total }),
              ...(options.hooks?.onStep ? { onStep: options.hooks.onStep } : {}),
            },
            { staging: staging!, references, totals, outputs: outputs!, ...(changes ? { changes } : {}) },
          ),
      );
      if (outcome?.targetReset) {
        log?.warn(
          { runId, target: target.label },
          'the target holds no contact but the ledger lists some (reset?): loading everything afresh',
        );
      }
      if (outcome?.continues) {
        const { runId: continued, loaded, toGo } = outcome.continues;
        log?.info(
          { runId, continues: outcome?.continues },
          `continuing run ${continued}: ${loaded} loaded, ${toGo} to go`,
        );
      }
      if (outcome?.searchReason) log?.warn({ runId }, `searching after all: ${outcome.searchReason}`);
      if (outcome && outcome.resumedCreates > 0) {
        log?.info(
          { runId, contacts: outcome.resumedCreates },
          'resent the creates an interrupted run left pending',
        );
      }
    }
    if (options.signal?.aborted) status = 'interrupted';
  } catch (error) {
    if (!shortcut) inputs = opened;
    status = options.signal?.aborted && !isImportError(error) ? 'interrupted' : 'aborted';
    if (status === 'aborted') failure = asImportError(error);
    // The command layer prints the one clear line; the log keeps the detail at info.
    log?.info({ runId, code: failure?.code }, failure?.message ?? 'run interrupted');
  } finally {
    samples = sampler.stop();
    staging?.close();
    changes?.close();
    await target?.close();
  }

  let files: Pick<RunResult, 'issuesPath' | 'rejectedPaths' | 'topIssues'>;
  let topFields: FieldCount[];
  if (shortcut) {
    const { issuesPath, rejectedPaths, topIssues } = shortcut;
    files = { issuesPath, rejectedPaths, topIssues };
    topFields = shortcut.topFields;
  } else {
    // A run stopped before it opened its files (or whose shortcut failed) still leaves them all.
    outputs ??= new RunOutputs(outDir, settings.inputs.length);
    await outputs.close();
    const topIssues = outputs.issues.topCodes();
    totals.warnings = topIssues.reduce(
      (n, c) => (c.severity === 'warning' && c.code !== 'duplicate' ? n + c.count : n),
      0,
    );
    files = { issuesPath: outputs.issues.path, rejectedPaths: outputs.rejectedPaths(), topIssues };
    topFields = outputs.issues.topFields();
  }
  // Whatever stopped the run and wherever: a record read that reached no outcome was not sent.
  totals.pending += totals.read - outcomesTotal(totals);
  const finished = new Date();
  const requests = target?.client?.stats() ?? { sent: 0, retried: 0, failed: 0, byEndpoint: {} };
  const exitCode =
    status === 'interrupted'
      ? options.signal?.reason === 'SIGTERM'
        ? EXIT.terminated
        : EXIT.interrupted
      : status === 'aborted'
        ? EXIT.stopped
        : totals.rejected + totals.failed > rejectLimit(settings.maxRejects, totals.read) ||
            (settings.strict && inputs.some((input) => input.rows === 0))
          ? EXIT.rejects
          : EXIT.ok;
  const report: RunReport = {
    runId,
    pipeline: pipeline.name,
    dryRun: settings.dryRun,
    target: target?.label ?? (options.target ? targetLabel(options.target.url) : 'local'),
    status,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    inputs,
    totals,
    groups: shortcut?.groups ?? outcome?.references.groups ?? { created: 0, existing: 0 },
    customFields: shortcut?.customFields ?? outcome?.references.customFields ?? { created: 0, existing: 0 },
    reminders: outcome?.reminders ?? { created: 0, updated: 0 },
    requests,
    exitCode,
    ...(shortcut && previous ? { inputsUnchangedSince: previous.runId } : {}),
    issues: issueSummary(files.topIssues, topFields),
    ...(outcome?.continues ? { continues: outcome.continues } : {}),
    ...(failure ? { error: { code: failure.code, message: failure.message, context: failure.context } } : {}),
  };
  const reportPath = writeReportFile(outDir, report);
  const htmlPath = writeHtmlReportFile(
    outDir,
    runModel(report, {
      codes: files.topIssues,
      fields: topFields,
      issuesPath: files.issuesPath,
      samples,
      ...(changes ? { changes: changes.model() } : {}),
    }),
    (message) => log?.warn({ runId }, message),
  );
  if (ledger) {
    const snapshot =
      status === 'completed' && hashed && definition && (await inputsUntouched(hashed))
        ? await snapshotOf({ definition, hashed, outDir, shortcut, ...files })
        : undefined;
    ledger.finishRun(runId, report, snapshot);
    ledger.close();
  }
  log?.info({ runId, status, totals, exitCode }, 'run finished');
  return {
    report,
    outDir,
    reportPath,
    ...(htmlPath ? { htmlPath } : {}),
    ...(changes ? { changesPath: changes.path } : {}),
    ...files,
    ...(target?.local ? { local: { db: target.local.db, keyFile: target.local.keyFile } } : {}),
  };
};

/** What the next run needs to tell whether it may reuse this one's outcome (rerun-shortcut.ts). */
const snapshotOf = async (run: {
  definition: string;
  hashed: HashedInput[];
  outDir: string;
  shortcut: ShortcutOutcome | undefined;
  issuesPath: string;
  rejectedPaths: string[];
  topIssues: IssueCount[];
}): Promise<RunSnapshot | undefined> => {
  const outputs = run.shortcut?.outputs ?? (await outputsOf(run.outDir, run.issuesPath, run.rejectedPaths));
  if (!outputs) return undefined;
  return {
    definition: run.definition,
    inputs: run.hashed.map((h) => h.fingerprint),
    outDir: run.outDir,
    outputs,
    topIssues: run.topIssues,
  };
};

/** Anything that stops a run is reported as a run-level code; unknown errors are `service_error`. */
const asImportError = (error: unknown): ImportError => {
  if (isImportError(error)) return error;
  const e = error as { name?: string; code?: string; status?: number; message?: string; retryable?: boolean };
  if (e?.name === 'RequestError') {
    if (e.status === 401)
      return new ImportError('auth_failed', `the target refused the API key: ${e.message}`);
    if (e.retryable)
      return new ImportError('retries_exhausted', `a request kept failing after every retry: ${e.message}`);
    // Client codes that are run codes (response_too_large) keep their name; the rest are the service's.
    const code: RunCode = e.code !== undefined && e.code in RUN_CODES ? (e.code as RunCode) : 'service_error';
    return new ImportError(code, e.message ?? 'the service failed');
  }
  return new ImportError(
    'aborted',
    error instanceof Error ? error.message : String(error),
    {},
    { cause: error },
  );
};
