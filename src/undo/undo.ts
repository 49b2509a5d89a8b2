import { join, resolve } from 'node:path';
import type { ServiceClient } from '../client/index.js';
import { ImportError, isImportError } from '../core/errors/index.js';
import { ChangesFile } from '../report/changes-file.js';
import { IssuesFile } from '../report/issues-file.js';
import { OutcomesFile } from '../report/outcomes-file.js';
import { writeFileAtomic } from '../report/atomic-file.js';
import { ProgressSampler } from '../report/progress-samples.js';
import type { RunStatus } from '../report/run-report.js';
import { newRunId, EXIT, interruptedExitCode } from '../run/run.js';
import { RUN_BOUNDS, RUN_DEFAULTS } from '../run/defaults.js';
import { assertOutputsSpareInputs } from '../run/input-guard.js';
import { outputPathsOf, prepareOutDir, writeHtmlReportFile } from '../report/run-outputs.js';
import type { ConnectedTarget } from '../run/target.js';
import {
  acquireRunLock,
  openLedger,
  openRunWork,
  type RunJournal,
  type RunEffect,
  type RunWork,
} from '../state/index.js';
import { sendUndo } from './apply.js';
import { decideUpdate, decideWithoutLookup, type MarkDetail } from './decide.js';
import { findUndoableRun, isRunFolder, runIdOf, UNDO_PIPELINE } from './locate.js';
import { assertNoContinuations } from './continuations.js';
import { lookUpContact } from './lookup.js';
import { countOutcomes, issuesOf, restoredRows, undoOutcomeRow, type Tracked } from './outcome.js';
import { connectFor } from './undo-target.js';
import type { Settings, UndoContext, UndoOptions } from './undo-context.js';
import { undoSyncOf, type SyncUndo } from './sync-stage.js';
import { emptyUndoTotals, undoExitReason, undoModel, type UndoReport } from './report.js';

export interface UndoResult {
  report: UndoReport;
  outDir: string;
  reportPath: string;
  htmlPath?: string;
  issuesPath: string;
  changesPath: string;
  /** outcomes.csv: one row per contact (or definition) the run journaled, what the undo did to it. */
  outcomesPath: string;
}

const whole = (value: number | undefined, fallback: number, max: number, name: string): number => {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ImportError(
      'config_invalid',
      `${name} must be a whole number from 1 to ${max}, got ${String(value)}`,
    );
  return n;
};

/**
 * `contact-import undo`: takes back a finished run on its target, from the ledger's journal of
 * what it did (src/state/run-effects.ts). Created contacts are archived, changed scalar fields put
 * back unless changed since (conflicts, kept), the rest listed as not undone. Itself a run: its
 * own id, report.json, report.html, issues.csv and changes.csv; chunked, retried, resumable, and
 * idempotent (what an undo settled is never sent again). Throws only when it cannot start.
 */
export const undoRun = async (options: UndoOptions): Promise<UndoResult> => {
  const settings: Settings = {
    stateDir: options.stateDir ?? RUN_DEFAULTS.stateDir,
    dryRun: options.dryRun ?? false,
    chunkSize: whole(options.chunkSize, RUN_DEFAULTS.chunkSize, RUN_BOUNDS.chunkSize.max, '--chunk-size'),
    concurrency: whole(
      options.concurrency,
      RUN_DEFAULTS.concurrency,
      RUN_BOUNDS.concurrency.max,
      '--concurrency',
    ),
  };
  const undoOf = runIdOf(options.run);
  const started = new Date();
  const runId = newRunId(started);
  const outDir = resolve(options.outDir ?? join('runs', runId));
  // The run's folder is what the undo reads: its report must not be replaced by the undo's.
  if (isRunFolder(options.run))
    assertOutputsSpareInputs(outputPathsOf(options.run, []), outputPathsOf(outDir, []));
  const ledger = openLedger({ dir: settings.stateDir });
  let lock: { release(): void } | undefined;
  let work: RunWork | undefined;
  try {
    const stored = findUndoableRun(ledger, undoOf, settings.stateDir);
    assertNoContinuations(ledger, stored, settings.stateDir);
    lock = settings.dryRun ? undefined : await acquireRunLock(settings.stateDir, { runId, since: started });
    work = openRunWork(settings.stateDir, runId);
    prepareOutDir(outDir);
    return await undoHolding(options, {
      settings,
      ledger,
      stored,
      runId,
      started,
      outDir,
      workDir: work.dir,
    });
  } finally {
    work?.close();
    lock?.release();
    ledger.close();
  }
};

const undoHolding = async (options: UndoOptions, ctx: UndoContext): Promise<UndoResult> => {
  const { settings, ledger, stored, runId } = ctx;
  const log = options.logger;
  const scope = ledger.scope(stored.scopeId);
  const tracked: Tracked[] = [];
  const waiting = scope.runEffects(stored.runId);
  let target: ConnectedTarget | undefined;
  const sampler = new ProgressSampler(() => ({
    read: tracked.length,
    loaded: tracked.filter((t) => t.state === 'settled').length,
    requests: target?.client?.stats().sent ?? 0,
    retries: target?.client?.stats().retried ?? 0,
  })).start();
  let status: RunStatus = 'completed';
  let failure: ImportError | undefined;
  let sync: SyncUndo | undefined;
  ledger.startRun({
    runId,
    scopeId: stored.scopeId,
    pipeline: UNDO_PIPELINE,
    inputs: [stored.runId],
    dryRun: settings.dryRun,
    startedAt: ctx.started.toISOString(),
    outDir: ctx.outDir,
  });
  log?.info({ runId, undoOf: stored.runId, effects: waiting.length }, 'undo started');
  try {
    const quick = waiting.map((effect) => ({ effect, decision: decideWithoutLookup(effect) }));
    // An undo with nothing left to take back sends nothing, not even the probe.
    const needed = quick.some((q) => q.decision === undefined || (q.decision.data && !q.decision.earlier));
    if (needed) target = await connectFor(options, ctx);
    const client = target?.client;
    const decisions = await Promise.all(
      quick.map(async (q) => q.decision ?? decideUpdate(q.effect, await lookUpContact(client!, q.effect))),
    );
    for (const decision of decisions) {
      const sends = decision.data !== undefined && !decision.earlier;
      tracked.push({ decision, state: sends ? 'open' : 'settled' });
    }
    settle(
      scope,
      settings,
      runId,
      tracked.filter((t) => t.state === 'settled' && !t.decision.earlier),
    );
    await sendOpen(options, { ...ctx, scope, client }, tracked);
    sync = await undoSyncOf(options, ctx, target, (t) => (target = t));
    if (options.signal?.aborted) status = 'interrupted';
  } catch (error) {
    status = options.signal?.aborted && !isImportError(error) ? 'interrupted' : 'aborted';
    if (status === 'aborted') failure = asUndoError(error);
    log?.info({ runId, code: failure?.code }, failure?.message ?? 'undo interrupted');
  } finally {
    await target?.close();
  }
  const samples = sampler.stop();
  return finish(options, ctx, {
    tracked,
    waiting,
    status,
    failure,
    target,
    samples,
    ...(sync ? { sync } : {}),
  });
};

/**
 * Sends the decisions still open (E1 chunks, apply.ts) and settles each as its chunk is answered;
 * a dry run settles them without sending.
 */
const sendOpen = async (
  options: UndoOptions,
  ctx: UndoContext & { scope: RunJournal; client: ServiceClient | undefined },
  tracked: readonly Tracked[],
): Promise<void> => {
  const { settings, scope, runId, client } = ctx;
  const toSend = tracked.filter((t) => t.state === 'open');
  if (settings.dryRun) toSend.forEach((t) => (t.state = 'settled'));
  if (settings.dryRun || !client) return;
  const byDecision = new Map(toSend.map((t) => [t.decision, t]));
  await sendUndo(
    toSend.map((t) => t.decision),
    {
      client,
      chunkSize: settings.chunkSize,
      concurrency: settings.concurrency,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStep ? { onStep: options.onStep } : {}),
      events: {
        done: (done) => {
          const items = done.map((d) => byDecision.get(d)!);
          items.forEach((t) => (t.state = 'settled'));
          settle(scope, settings, runId, items);
        },
        failed: (decision, error) => {
          const t = byDecision.get(decision)!;
          t.state = 'failed';
          t.error = error.message;
        },
      },
    },
  );
};

/** Records settled decisions in the ledger (never in a dry run), so no later undo sends them again. */
const settle = (scope: RunJournal, settings: Settings, runId: string, items: readonly Tracked[]): void => {
  if (settings.dryRun || items.length === 0) return;
  scope.settleUndo(
    items[0]!.decision.effect.runId,
    items
      .filter((t) => !t.decision.earlier)
      .map(({ decision }) => ({
        effect: decision.effect,
        mark: {
          outcome: decision.outcome,
          undoRunId: runId,
          detail: { conflicts: decision.conflicts, notes: decision.notes } satisfies MarkDetail,
        },
      })),
  );
};

const asUndoError = (error: unknown): ImportError => {
  if (isImportError(error)) return error;
  const e = error as { name?: string; status?: number; retryable?: boolean; message?: string };
  if (e?.name === 'RequestError') {
    if (e.status === 401)
      return new ImportError('auth_failed', `the target refused the API key: ${e.message}`);
    if (e.retryable)
      return new ImportError('retries_exhausted', `a request kept failing after every retry: ${e.message}`);
    return new ImportError('service_error', e.message ?? 'the service failed');
  }
  return new ImportError('aborted', error instanceof Error ? error.message : String(error));
};

interface UndoEnd {
  tracked: Tracked[];
  /** Every effect the run journaled, in order; `tracked` holds the decisions of the first ones. */
  waiting: RunEffect[];
  status: RunStatus;
  failure: ImportError | undefined;
  target: ConnectedTarget | undefined;
  samples: ReturnType<ProgressSampler['stop']>;
  sync?: SyncUndo;
}

/**
 * Writes the undo's outputs (issues.csv, changes.csv, outcomes.csv, report.json, report.html) and
 * ends its run in the ledger.
 */
const finish = async (options: UndoOptions, ctx: UndoContext, run: UndoEnd): Promise<UndoResult> => {
  const { outDir, runId } = ctx;
  const issues = new IssuesFile(join(outDir, 'issues.csv'), ctx.workDir);
  const changes = new ChangesFile(join(outDir, 'changes.csv'));
  const outcomes = new OutcomesFile(join(outDir, 'outcomes.csv'));
  for (const t of run.tracked) {
    issuesOf(t).forEach((issue) => issues.add(issue));
    changes.add(restoredRows(t));
    outcomes.add(undoOutcomeRow(t, ctx.settings.dryRun));
  }
  // Stopped before deciding (a lookup failed): the rest is pending, each still listed.
  for (const effect of run.waiting.slice(run.tracked.length)) {
    const open: Tracked = {
      decision: { effect, outcome: 'notUndone', restored: [], conflicts: [], notes: [] },
      state: 'open',
    };
    outcomes.add(undoOutcomeRow(open, ctx.settings.dryRun));
  }
  run.sync?.issues.forEach((issue) => issues.add(issue));
  changes.add(run.sync?.rows ?? []);
  await issues.close();
  changes.close();
  outcomes.close();
  const report = undoReportOf(options, ctx, run);
  const reportPath = join(outDir, 'report.json');
  writeFileAtomic(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  const html = writeHtmlReportFile(
    outDir,
    undoModel(report, {
      codes: issues.topCodes(),
      fields: issues.topFields(),
      issuesPath: issues.path,
      samples: run.samples,
      changes: changes.model(),
    }),
  );
  ctx.ledger.finishRun(runId, report);
  // report.json holds every number; a page that could not be written still ends the undo at exit 2.
  if ('error' in html) throw html.error;
  const { status, totals, exitCode } = report;
  options.logger?.info({ runId, status, totals, exitCode }, 'undo finished');
  return {
    report,
    outDir,
    reportPath,
    htmlPath: html.path,
    issuesPath: issues.path,
    changesPath: changes.path,
    outcomesPath: outcomes.path,
  };
};

/** report.json of the undo (report.ts), its totals counted from the decisions' states. */
const undoReportOf = (options: UndoOptions, ctx: UndoContext, run: UndoEnd): UndoReport => {
  const { runId, stored, settings } = ctx;
  const totals = emptyUndoTotals();
  totals.read = run.waiting.length;
  countOutcomes(run.tracked, totals);
  // A field set since the sync run cleared it is a conflict like any other.
  totals.conflicts += run.sync?.counts.conflicts ?? 0;
  const finished = new Date();
  const effects = run.tracked.map((t) => t.decision.effect);
  const partial = {
    kind: 'undo' as const,
    runId,
    undoOf: stored.runId,
    dryRun: settings.dryRun,
    target: run.target?.label ?? String((stored.report as { target?: unknown } | undefined)?.target ?? ''),
    status: run.status,
    startedAt: ctx.started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - ctx.started.getTime(),
    totals,
    earlier: run.tracked.filter((t) => t.decision.earlier).length,
    left: {
      groups: effects.filter((e) => e.kind === 'group').map((e) => e.key),
      customFields: effects.filter((e) => e.kind === 'custom_field').map((e) => e.key),
    },
    requests: run.target?.client?.stats() ?? { sent: 0, retried: 0, failed: 0, byEndpoint: {} },
    exitCode: undoExitCode(run.status, options.signal, totals),
    ...(run.sync ? { sync: run.sync.counts } : {}),
    ...(run.failure ? { error: { code: run.failure.code, message: run.failure.message } } : {}),
  };
  return { ...partial, exitReason: undoExitReason(partial) };
};

const undoExitCode = (
  status: RunStatus,
  signal: AbortSignal | undefined,
  totals: { failed: number; conflicts: number },
): number => {
  if (status === 'interrupted') return interruptedExitCode(signal?.reason);
  if (status === 'aborted') return EXIT.stopped;
  return totals.failed + totals.conflicts > 0 ? EXIT.rejects : EXIT.ok;
};
