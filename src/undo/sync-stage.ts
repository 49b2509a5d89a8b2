import type { ConnectedTarget } from '../run/target.js';
import { undoSyncEffects } from './sync-undo.js';
import type { UndoContext, UndoOptions } from './undo-context.js';
import { connectFor } from './undo-target.js';

export type SyncUndo = NonNullable<Awaited<ReturnType<typeof undoSyncEffects>>>;

/** What a sync run did beyond its loads (sync-undo.ts), taken back; connects when it must. */
export const undoSyncOf = async (
  options: UndoOptions,
  ctx: UndoContext,
  connected: ConnectedTarget | undefined,
  onConnect: (target: ConnectedTarget) => void,
): Promise<SyncUndo | undefined> => {
  const { ledger, stored, settings, runId } = ctx;
  if (ledger.syncEffects(stored.runId).length === 0) {
    // Nothing to take back on the target; the scope's base still goes back to before the run.
    if (!settings.dryRun && !options.signal?.aborted)
      ledger.restoreSyncSent(stored.scopeId, ledger.syncSentBefore(stored.runId), { undoRunId: runId });
    return undefined;
  }
  let target = connected;
  if (!target) onConnect((target = await connectFor(options, ctx)));
  return undoSyncEffects({
    ledger,
    scopeId: stored.scopeId,
    runId: stored.runId,
    undoRunId: runId,
    client: target.client,
    dryRun: settings.dryRun,
    chunkSize: settings.chunkSize,
    ...(options.signal ? { signal: options.signal } : {}),
  });
};
