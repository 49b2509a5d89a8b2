import { join } from 'node:path';
import type { ExtractCounts } from '../extract/types.js';
import type { ChangeRow } from '../load/types.js';
import type { InputInfo } from '../readers/types.js';
import { applyCandidateMerges } from './candidate-merges.js';
import { CandidatePeople, type RunCandidates } from '../candidates/people.js';
import { References } from '../package/references.js';
import { Staging } from '../package/staging.js';
import { extract, type ExtractContext, type ExtractOptions } from '../extract/extract.js';
import { RunOutputs } from '../report/run-outputs.js';
import type { OpenedTarget, RunFrame } from './run-frame.js';

export interface ExtractResult {
  /** What stopped reading; its counts say what it read before. */
  error?: unknown;
  /** Each input opened, with its counts (a run stopped mid-input still lists it). */
  inputs: InputInfo[];
  counts: ExtractCounts;
  /** What the load stage takes: the staged records and the references they need. */
  staging: Staging;
  references: References;
  outputs: RunOutputs;
  /** Set when the load will compare with what the target holds (changes.csv). */
  countOnly: boolean;
  /** A stop ended reading early: where (extract/extract.ts). */
  stoppedAt?: { file: string; row: number };
  /** The contact fields each input's header has a column for, by input index (sync clears). */
  headerFields: Map<number, string[]>;
  /** The people read, for the duplicate candidates; absent with `--candidates off`. */
  people?: CandidatePeople;
  /** The duplicate candidates found once reading ended (candidates.csv). */
  candidates?: RunCandidates;
  /** `--merge-candidates`: the changes.csv rows of the records merged into another's contact. */
  mergeChanges?: ChangeRow[];
}

export type OnRead = (done: number, bytes: number, totalBytes: number | undefined) => void;

/** The extract stage's result before it runs: the staging and the outputs it fills. */
export const prepareExtract = (run: RunFrame, opened: OpenedTarget): ExtractResult => {
  const { settings, pipelines } = run;
  const { target, ledger } = opened;
  const scope = ledger && target.scopeId ? ledger.scope(target.scopeId) : undefined;
  // Nothing to compare with and nothing to search: every identity would be created, so the
  // records themselves are not kept, only where they came from.
  const countOnly =
    settings.dryRun &&
    // Merging candidates rewrites staged records: they must be kept.
    run.mergeChoice === undefined &&
    pipelines.every((pipeline) => pipeline.spec.reminders.length === 0) &&
    !(scope?.hasContacts() ?? false) &&
    (target.client === undefined || settings.match === 'none' || target.empty);
  return {
    inputs: [],
    counts: { read: 0, rejected: 0, duplicates: 0, merged: 0 },
    staging: new Staging({ dir: run.workDir, keysOnly: countOnly }),
    references: new References(),
    outputs: new RunOutputs(run.outDir, settings.inputs.length, run.workDir),
    countOnly,
    headerFields: new Map(),
    ...(settings.candidates === 'on' ? { people: new CandidatePeople() } : {}),
  };
};

/** source -> map -> normalize -> validate -> dedupe, into the staging the load stage reads. */
export const extractInto = async (
  run: RunFrame,
  opened: OpenedTarget,
  result: ExtractResult,
  onRead: OnRead,
  how: Pick<ExtractOptions, 'loadMeanwhile'> = {},
): Promise<void> => {
  const { settings, pipeline, pipelines, options } = run;
  const context: ExtractContext = {
    outputs: result.outputs,
    staging: result.staging,
    references: result.references,
    totals: result.counts,
    opened: result.inputs,
    headerFields: result.headerFields,
    ...(result.people ? { candidates: result.people } : {}),
  };
  try {
    await extract(
      {
        pipeline,
        pipelines,
        inputs: [...settings.inputs],
        ...(settings.region ? { region: settings.region } : {}),
        strict: settings.strict,
        maxBodyBytes: settings.maxBodyBytes,
        // A stop signal, or an output that cannot be written any more: reading stops either way.
        signal: options.signal
          ? AbortSignal.any([options.signal, result.outputs.failed])
          : result.outputs.failed,
        ...(options.stdin ? { stdin: options.stdin } : {}),
        ...how,
        onRecord: onRead,
      },
      context,
    );
    if (result.people) {
      const started = performance.now();
      result.candidates = result.people.match(
        join(run.outDir, 'candidates.csv'),
        options.hostControls?.collectGarbage,
      );
      const ms = Math.round(performance.now() - started);
      run.log?.debug({ runId: run.runId, candidates: result.candidates.counts, ms }, 'duplicate candidates');
      if (run.mergeChoice) {
        result.mergeChanges = applyCandidateMerges(run.mergeChoice, result.candidates, result.people, {
          staging: result.staging,
          outputs: result.outputs,
          totals: result.counts,
        });
      }
    }
  } catch (error) {
    result.error = error;
  }
  if (context.stoppedAt) result.stoppedAt = context.stoppedAt;
};
