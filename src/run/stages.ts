import { join } from 'node:path';
import type { Logger } from 'pino';
import type { WaitEvent } from '../client/index.js';
import type { LoadCounts } from '../load/types.js';
import { load, NOT_SENT, type LoadOutcome } from '../load/index.js';
import { ChangesFile } from '../report/changes-file.js';
import { openLedger, type Ledger } from '../state/index.js';
import { extractInto, prepareExtract, type ExtractResult, type OnRead } from './extract-stage.js';
import { hashInputs, type HashedInput } from './fingerprint.js';
import type { RunSettings } from './options.js';
import { applyShortcut, decideShortcut, type PreviousRun, type ShortcutOutcome } from './rerun-shortcut.js';
import { pipelinesName, type OpenedTarget, type RunFrame } from './run-frame.js';
import { connectTarget, type ConnectedTarget } from './target.js';
import { inTargetTurn } from './target-turn.js';
import type { RunOptions } from './run-types.js';
import { syncApplyStage, syncPlanStage, type SyncResult } from './sync-stage.js';
import { TargetPairs } from './target-pairs.js';

/**
 * The run's target as its settings say: the service given, or the local one in the state folder.
 * A graceful stop ends any wait for the target at once; a wait of a second or more is logged.
 */
export const connectRunTarget = (
  settings: RunSettings,
  options: Pick<RunOptions, 'target' | 'client' | 'signal' | 'logger'>,
): Promise<ConnectedTarget> =>
  connectTarget({
    ...(options.target ? { target: options.target } : {}),
    stateDir: settings.stateDir,
    dryRun: settings.dryRun,
    // The client's request limit is the run's one concurrency limit (the load only feeds it).
    client: {
      concurrency: settings.concurrency,
      maxWaitMs: settings.maxWait * 1000,
      ...(settings.timeout !== undefined ? { timeoutMs: Math.round(settings.timeout * 1000) } : {}),
      ...(options.signal ? { stopWaiting: options.signal } : {}),
      ...(options.logger ? { onWait: waitLogger(options.logger) } : {}),
      ...options.client,
    },
  });

/**
 * Says when the run waits for the target, once per new end of the wait: requests waiting for the
 * same `Retry-After` or pace say it once. Long waits at warn (shown by default), short ones at debug.
 */
const waitLogger = (log: Logger): ((event: WaitEvent) => void) => {
  let saidUntil = '';
  return (event) => {
    if (event.until <= saidUntil) return;
    saidUntil = event.until;
    const seconds = `${Math.ceil(event.delayMs / 1000)} s (until ${event.until})`;
    const text =
      event.reason === 'retry-after'
        ? `target asked to wait ${seconds}`
        : event.reason === 'pace'
          ? `waiting ${seconds} for the target's rate limit`
          : `retrying in ${seconds}`;
    if (event.delayMs >= LOGGED_WAIT_MS) log.warn({ waitMs: event.delayMs, until: event.until }, text);
    else log.debug({ waitMs: event.delayMs, until: event.until }, text);
  };
};

/** Waits from this long are said at warn level: shorter ones are the ordinary rhythm of retries. */
const LOGGED_WAIT_MS = 10_000;

/** Each stage returns what it did; `error` is what stopped it, its counts what it did before. */
interface StageResult {
  error?: unknown;
}

export interface OpenResult extends StageResult {
  target?: ConnectedTarget;
  ledger?: Ledger;
  /** The inputs' fingerprints, when the run may be reused by the next one. */
  hashed?: HashedInput[];
  /** The earlier run whose outcome this one reuses (inputs unchanged). */
  previous?: PreviousRun;
}

export interface ShortcutResult extends StageResult {
  outcome?: ShortcutOutcome;
}

export interface LoadResult extends StageResult {
  counts: LoadCounts;
  /** Absent when the load did not run to its end (an error, or stopped waiting for the target). */
  outcome?: LoadOutcome;
  changes?: ChangesFile;
}

export const emptyLoadCounts = (): LoadCounts => ({
  created: 0,
  updated: 0,
  unchanged: 0,
  failed: 0,
  pending: 0,
  rejected: 0,
  merged: 0,
});

/** connect -> ledger -> fingerprint: the target, and whether the last run's outcome can be reused. */
export const openStage = async (run: RunFrame): Promise<OpenResult> => {
  const { settings, options, runId, definition } = run;
  const pipeline = { name: pipelinesName(run) };
  const result: OpenResult = {};
  try {
    const target = run.connected ?? (await connectRunTarget(settings, options));
    result.target = target;
    if (target.scopeId) {
      const ledger = openLedger({ dir: settings.stateDir });
      result.ledger = ledger;
      if (definition) {
        result.hashed = await hashInputs(settings.inputs, options.signal);
        if (result.hashed && !settings.reread) {
          const decision = await decideShortcut({
            ledger,
            scopeId: target.scopeId,
            definition,
            inputs: result.hashed.map((h) => h.fingerprint),
            targetEmpty: target.empty,
          });
          if (decision.use) result.previous = decision.previous;
          else run.log?.debug({ runId, reason: decision.reason }, 'reading the inputs');
        }
      }
      ledger.startRun({
        runId,
        scopeId: target.scopeId,
        pipeline: pipeline.name,
        inputs: settings.inputs,
        dryRun: settings.dryRun,
        startedAt: run.started.toISOString(),
        outDir: run.outDir,
        ...(settings.sync !== undefined ? { sync: settings.sync } : {}),
      });
    }
    run.log?.info(
      { runId, pipeline: pipeline.name, target: target.label, dryRun: settings.dryRun },
      'run started',
    );
  } catch (error) {
    result.error = error;
  }
  return result;
};

/** Inputs byte-identical to the last run's: its files copied, its outcome counted again. */
export const shortcutStage = async (run: RunFrame, previous: PreviousRun): Promise<ShortcutResult> => {
  try {
    const outcome = await applyShortcut(previous, run.outDir);
    run.log?.info(
      { runId: run.runId, inputsUnchangedSince: previous.runId },
      `inputs unchanged since run ${previous.runId}: nothing read, nothing sent`,
    );
    return { outcome };
  } catch (error) {
    return { error };
  }
};

type OnLoad = (done: number, total: number) => void;

/**
 * extract, then load; or both at once. A live run into a target its probe found empty starts loading while it reads (load/index.ts, in the target's turn: it loads as it reads
 * when the target is still empty then, else waits for the end of reading): every record is a
 * create, so nothing it reads later changes what it sends, but a later duplicate (merged as an
 * update of its contact). Reading that fails stops the load as a Ctrl-C would: chunks in flight
 * finish, the rest is pending. `onReadEnd` is called once reading has ended.
 */
export const extractAndLoadStages = async (
  run: RunFrame,
  opened: OpenedTarget,
  progress: { onRead: OnRead; onLoad: OnLoad; onReadEnd: () => void },
): Promise<{ extract: ExtractResult; load?: LoadResult; sync?: SyncResult }> => {
  const extract = prepareExtract(run, opened);
  const { settings } = run;
  // A sync run reads its inputs whole before it sends anything: its guard needs all of them.
  const follows =
    settings.sync === undefined &&
    // Candidates are merged once every record is read, before anything is sent.
    run.mergeChoice === undefined &&
    !settings.dryRun &&
    opened.target.client !== undefined &&
    opened.ledger !== undefined &&
    opened.target.empty &&
    !extract.countOnly;
  if (!follows) {
    await extractInto(run, opened, extract, progress.onRead);
    progress.onReadEnd();
    // An output that failed mid-read stopped reading: nothing more is sent (close() reports it).
    if (extract.error !== undefined || extract.outputs.failed.aborted) return { extract };
    const sync = syncPlanStage(run, opened, extract);
    if (sync?.error !== undefined) return { extract, sync };
    const load = await loadStage(run, opened, extract, progress.onLoad);
    if (sync) await syncApplyStage(run, opened, extract, load, sync);
    return { extract, load, ...(sync ? { sync } : {}) };
  }
  const readingFailed = new AbortController();
  let readingEnded!: (ok: boolean) => void;
  const reading = new Promise<boolean>((resolve) => (readingEnded = resolve));
  const loading = loadStage(run, opened, extract, progress.onLoad, { reading, stop: readingFailed.signal });
  try {
    await extractInto(run, opened, extract, progress.onRead, { loadMeanwhile: true });
  } finally {
    extract.staging.end();
    progress.onReadEnd();
    if (extract.error !== undefined) readingFailed.abort();
    readingEnded(extract.error === undefined);
  }
  const load = await loading;
  // A load that waited for reading, which then failed, did nothing: the run reports no load stage.
  if (extract.error !== undefined && !load.outcome?.whileReading && load.error === undefined) {
    load.changes?.close();
    return { extract };
  }
  return { extract, load };
};

/**
 * resolve -> send, in the target's turn; what it loaded, failed or left pending. `whileReading`:
 * the inputs are still being read (extractAndLoadStages); `stop` ends the load if reading fails.
 */
const loadStage = async (
  run: RunFrame,
  opened: OpenedTarget,
  extracted: ExtractResult,
  onLoad: OnLoad,
  whileReading?: { reading: Promise<boolean>; stop: AbortSignal },
): Promise<LoadResult> => {
  const { settings, options, runId, log } = run;
  const { target, ledger } = opened;
  const scope = ledger && target.scopeId ? ledger.scope(target.scopeId) : undefined;
  const result: LoadResult = { counts: emptyLoadCounts() };
  // Only a target's answers show a contact's values: without one there is nothing to compare.
  if ((target.client || settings.sync !== undefined) && !extracted.countOnly)
    result.changes = new ChangesFile(join(run.outDir, 'changes.csv'));
  const { changes } = result;
  if (changes && extracted.mergeChanges) changes.add(extracted.mergeChanges);
  const targetPairs = extracted.candidates
    ? new TargetPairs(extracted.candidates.scorer, run.mergeChoice)
    : undefined;
  try {
    const outcome = await inTargetTurn(
      {
        target,
        runId,
        since: run.started,
        dryRun: settings.dryRun,
        signal: options.signal,
        log,
        ...(options.hostControls?.gateDir ? { gateDir: options.hostControls.gateDir } : {}),
      },
      (targetWasEmpty) =>
        load(
          {
            ...(target.client ? { client: target.client } : {}),
            ...(scope ? { scope } : {}),
            dryRun: settings.dryRun,
            runId,
            chunkSize: settings.chunkSize,
            maxBodyBytes: settings.maxBodyBytes,
            concurrency: settings.concurrency,
            match: settings.match,
            targetWasEmpty,
            ...(targetPairs ? { targetCandidates: targetPairs } : {}),
            ...signalOf(options.signal, whileReading?.stop, extracted.outputs.failed),
            ...(whileReading ? { reading: whileReading.reading } : {}),
            onProgress: onLoad,
            ...(options.hooks?.onStep ? { onStep: options.hooks.onStep } : {}),
            ...(options.hostControls?.collectGarbage
              ? { collectGarbage: options.hostControls.collectGarbage }
              : {}),
          },
          {
            staging: extracted.staging,
            references: extracted.references,
            totals: result.counts,
            outputs: extracted.outputs,
            ...(changes ? { changes } : {}),
          },
        ),
    );
    if (outcome) {
      result.outcome = outcome;
      logOutcome(run, target, outcome);
    }
  } catch (error) {
    result.error = error;
  }
  if (targetPairs && extracted.people && extracted.candidates) {
    try {
      changes?.add(targetPairs.changes);
      extracted.candidates = extracted.people.withTargetPairs(extracted.candidates, targetPairs.found);
    } catch (error) {
      result.error ??= error;
    }
  }
  return result;
};

/**
 * The staged records the load never took (it did not run, or stopped before them): pending, each
 * with its outcomes.csv row, as the totals count them. Before the staging is closed.
 */
export const settleUnreached = (extract: ExtractResult): void => {
  for (const places of extract.staging.unreached(1024)) {
    for (const { file, row, line, key } of places) {
      extract.outputs.outcomes.add({ file, row, line, outcome: 'pending', identity: key, reason: NOT_SENT });
    }
  }
};

/**
 * The load's stop: the run's, reading's failure when it loads while reading, and an output file
 * that failed a write (the run stops there, its records not sent pending).
 */
const signalOf = (...given: (AbortSignal | undefined)[]) => {
  const signals = given.filter((s): s is AbortSignal => s !== undefined);
  if (signals.length === 0) return {};
  return { signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals) };
};

const logOutcome = (run: RunFrame, target: ConnectedTarget, outcome: LoadOutcome): void => {
  const { runId, log } = run;
  if (!log) return;
  if (outcome.targetReset) {
    log.warn(
      { runId, target: target.label },
      'the target holds no contact but the ledger lists some (reset?): loading everything afresh',
    );
  }
  if (outcome.continues) {
    const { runId: continued, loaded, toGo } = outcome.continues;
    log.info(
      { runId, continues: outcome.continues },
      `continuing run ${continued}: ${loaded} loaded, ${toGo} to go`,
    );
  }
  if (outcome.searchReason) log.warn({ runId }, `searching after all: ${outcome.searchReason}`);
  if (outcome.resumedCreates > 0) {
    log.info(
      { runId, contacts: outcome.resumedCreates },
      'resent the creates an interrupted run left pending',
    );
  }
};
