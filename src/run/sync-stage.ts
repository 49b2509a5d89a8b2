import type { ChangeSink } from '../load/previews.js';
import type { Staging } from '../package/staging.js';
import type { Ledger } from '../state/index.js';
import { planSync, runSyncPhase, type SyncCounts, type SyncPlan } from '../sync/index.js';
import type { RunSettings } from './options.js';
import type { RunOptions } from './run-types.js';
import type { ConnectedTarget } from './target.js';

/** What the sync stage reads of the run (stages.ts RunFrame) and of its extract and load stages. */
interface RunPart {
  settings: RunSettings;
  runId: string;
  options: Pick<RunOptions, 'signal' | 'hooks'>;
}
interface ExtractPart {
  staging: Staging;
  headerFields: ReadonlyMap<number, readonly string[]>;
}
interface LoadPart {
  error?: unknown;
  changes?: ChangeSink;
}

/** The sync stage's result: its plan (the guard passed), what it did, or what stopped it. */
export interface SyncResult {
  error?: unknown;
  plan?: SyncPlan;
  counts?: SyncCounts;
}

type Opened = { target: ConnectedTarget; ledger?: Ledger };

/**
 * Before the load, once the inputs are read whole: the scope's members absent from every input,
 * and the guard (`--max-archive`). Undefined when the run is no sync run or has no ledger scope
 * (a dry run into a local service never loaded into: nothing to compare with).
 */
export const syncPlanStage = (run: RunPart, opened: Opened, extract: ExtractPart): SyncResult | undefined => {
  const name = run.settings.sync;
  const { ledger, target } = opened;
  if (name === undefined || !ledger || !target.scopeId) return undefined;
  try {
    const sync = ledger.syncScope(target.scopeId, name);
    if (extract.staging.keysOnly) return { plan: { scope: name, ledger: sync, gone: [], active: 0 } };
    return { plan: planSync(name, sync, extract.staging, run.settings.maxArchive) };
  } catch (error) {
    return { error };
  }
};

/**
 * After a load that reached every record: the members brought in line with the inputs and the
 * gone ones archived (src/sync/phase.ts); a dry run only counts and lists them in changes.csv.
 */
export const syncApplyStage = async (
  run: RunPart,
  opened: Opened,
  extract: ExtractPart,
  load: LoadPart,
  result: SyncResult,
): Promise<void> => {
  const { plan } = result;
  const { settings, options } = run;
  const scope =
    opened.ledger && opened.target.scopeId ? opened.ledger.scope(opened.target.scopeId) : undefined;
  result.counts = { scope: settings.sync!, archived: 0, unarchived: 0, valuesRemoved: 0, fieldsCleared: 0 };
  // A load that stopped early leaves records unsent: who is gone cannot be told, nothing is archived.
  if (!plan || !scope || load.error !== undefined || options.signal?.aborted || extract.staging.keysOnly)
    return;
  try {
    result.counts = await runSyncPhase({
      plan,
      staging: extract.staging,
      contacts: scope,
      ...(opened.target.client ? { client: opened.target.client } : {}),
      dryRun: settings.dryRun,
      runId: run.runId,
      chunkSize: settings.chunkSize,
      headerFields: extract.headerFields,
      ...(load.changes ? { changes: load.changes } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.hooks?.onStep ? { onStep: options.hooks.onStep } : {}),
    });
  } catch (error) {
    result.error = error;
  }
};
