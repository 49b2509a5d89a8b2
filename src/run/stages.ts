import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ExtractCounts, InputInfo, LoadCounts } from '../core/types.js';
import { load, type LoadOutcome } from '../load/index.js';
import type { Pipeline } from '../mapping/index.js';
import { References } from '../package/references.js';
import { Staging } from '../package/staging.js';
import { ChangesFile } from '../report/changes-file.js';
import { openLedger, type Ledger } from '../state/index.js';
import { extract, type ExtractOptions } from './extract.js';
import { hashInputs, type HashedInput } from './fingerprint.js';
import type { RunSettings } from './options.js';
import { RunOutputs } from './outputs.js';
import { applyShortcut, decideShortcut, type PreviousRun, type ShortcutOutcome } from './rerun-shortcut.js';
import { connectTarget, type ConnectedTarget } from './target.js';
import { inTargetTurn } from './target-turn.js';
import type { RunOptions } from './run-types.js';

/** What every stage knows of the run it is part of. */
export interface RunFrame {
  settings: RunSettings;
  pipeline: Pipeline;
  started: Date;
  runId: string;
  outDir: string;
  /** The run's scratch folder in the state directory (state/run-work.ts). */
  workDir: string;
  /** The pipeline, its settings and the tool version as one hash; absent for a dry run. */
  definition?: string;
  options: RunOptions;
  log?: Logger;
  /** A service given by URL, connected and probed before anything was written (runImport). */
  connected?: ConnectedTarget;
}

/** The run's target as its settings say: the service given, or the local one in the state folder. */
export const connectRunTarget = (
  settings: RunSettings,
  options: Pick<RunOptions, 'target' | 'client'>,
): Promise<ConnectedTarget> =>
  connectTarget({
    ...(options.target ? { target: options.target } : {}),
    stateDir: settings.stateDir,
    dryRun: settings.dryRun,
    // The client's request limit is the run's one concurrency limit (the load only feeds it).
    client: {
      concurrency: settings.concurrency,
      ...(settings.timeout !== undefined ? { timeoutMs: Math.round(settings.timeout * 1000) } : {}),
      ...options.client,
    },
  });

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

export interface ExtractResult extends StageResult {
  /** Each input opened, with its counts (a run stopped mid-input still lists it). */
  inputs: InputInfo[];
  counts: ExtractCounts;
  /** What the load stage takes: the staged records and the references they need. */
  staging: Staging;
  references: References;
  outputs: RunOutputs;
  /** Set when the load will compare with what the target holds (changes.csv). */
  countOnly: boolean;
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
});

/** connect -> ledger -> fingerprint: the target, and whether the last run's outcome can be reused. */
export const openStage = async (run: RunFrame): Promise<OpenResult> => {
  const { settings, options, runId, pipeline, definition } = run;
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

type Opened = Pick<OpenResult, 'ledger'> & { target: ConnectedTarget };
type OnRead = (done: number, bytes: number, totalBytes: number | undefined) => void;
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
  opened: Opened,
  progress: { onRead: OnRead; onLoad: OnLoad; onReadEnd: () => void },
): Promise<{ extract: ExtractResult; load?: LoadResult }> => {
  const extract = prepareExtract(run, opened);
  const { settings } = run;
  const follows =
    !settings.dryRun &&
    opened.target.client !== undefined &&
    opened.ledger !== undefined &&
    opened.target.empty &&
    !extract.countOnly;
  if (!follows) {
    await extractInto(run, opened, extract, progress.onRead);
    progress.onReadEnd();
    if (extract.error !== undefined) return { extract };
    return { extract, load: await loadStage(run, opened, extract, progress.onLoad) };
  }
  const readingFailed = new AbortController();
  let readingEnded!: (ok: boolean) => void;
  const reading = new Promise<boolean>((resolve) => (readingEnded = resolve));
  const loading = loadStage(run, opened, extract, progress.onLoad, { reading, stop: readingFailed.signal });
  try {
    await extractInto(run, opened, extract, progress.onRead, {
      loadMeanwhile: true,
      coresTaken: opened.target.sharesCores ? 1 : 0,
    });
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

/** The extract stage's result before it runs: the staging and the outputs it fills. */
const prepareExtract = (run: RunFrame, opened: Opened): ExtractResult => {
  const { settings, pipeline } = run;
  const { target, ledger } = opened;
  const scope = ledger && target.scopeId ? ledger.scope(target.scopeId) : undefined;
  // Nothing to compare with and nothing to search: every identity would be created, so the
  // records themselves are not kept, only where they came from.
  const countOnly =
    settings.dryRun &&
    pipeline.spec.reminders.length === 0 &&
    !(scope?.hasContacts() ?? false) &&
    (target.client === undefined || settings.match === 'none' || target.empty);
  return {
    inputs: [],
    counts: { read: 0, rejected: 0, duplicates: 0 },
    staging: new Staging({ dir: run.workDir, keysOnly: countOnly }),
    references: new References(),
    outputs: new RunOutputs(run.outDir, settings.inputs.length, run.workDir),
    countOnly,
  };
};

/** source -> map -> normalize -> validate -> dedupe, into the staging the load stage reads. */
const extractInto = async (
  run: RunFrame,
  opened: Opened,
  result: ExtractResult,
  onRead: OnRead,
  how: Pick<ExtractOptions, 'loadMeanwhile' | 'coresTaken'> = {},
): Promise<void> => {
  const { settings, pipeline, options } = run;
  try {
    await extract(
      {
        pipeline,
        inputs: [...settings.inputs],
        ...(settings.region ? { region: settings.region } : {}),
        strict: settings.strict,
        maxBodyBytes: settings.maxBodyBytes,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stdin ? { stdin: options.stdin } : {}),
        ...(options.hooks?.workerExitAt ? { workerExitAt: options.hooks.workerExitAt } : {}),
        ...(options.hostControls?.workers !== undefined ? { workers: options.hostControls.workers } : {}),
        ...(options.hostControls?.lowerWorkerPriority ? { lowerWorkerPriority: true } : {}),
        ...how,
        onRecord: onRead,
      },
      {
        outputs: result.outputs,
        staging: result.staging,
        references: result.references,
        totals: result.counts,
        opened: result.inputs,
      },
    );
  } catch (error) {
    result.error = error;
  }
};

/**
 * resolve -> send, in the target's turn; what it loaded, failed or left pending. `whileReading`:
 * the inputs are still being read (extractAndLoadStages); `stop` ends the load if reading fails.
 */
const loadStage = async (
  run: RunFrame,
  opened: Opened,
  extracted: ExtractResult,
  onLoad: OnLoad,
  whileReading?: { reading: Promise<boolean>; stop: AbortSignal },
): Promise<LoadResult> => {
  const { settings, options, runId, log } = run;
  const { target, ledger } = opened;
  const scope = ledger && target.scopeId ? ledger.scope(target.scopeId) : undefined;
  const result: LoadResult = { counts: emptyLoadCounts() };
  // Only a target's answers show a contact's values: without one there is nothing to compare.
  if (target.client && !extracted.countOnly)
    result.changes = new ChangesFile(join(run.outDir, 'changes.csv'));
  const { changes } = result;
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
            ...signalOf(options.signal, whileReading?.stop),
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
  return result;
};

/** The load's stop: the run's, and reading's failure when it loads while reading. */
const signalOf = (run: AbortSignal | undefined, reading: AbortSignal | undefined) => {
  const signals = [run, reading].filter((s): s is AbortSignal => s !== undefined);
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
