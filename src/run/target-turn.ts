import type { Logger } from 'pino';
import { describeHolder, enterTargetGate } from '../state/index.js';
import type { ConnectedTarget } from './target.js';

/**
 * The load, in this run's turn on its target (src/state/target-gate.ts): a run that writes to a
 * target another run on this machine is loading into as the same user, from another state
 * directory, waits for it, then resolves against the target as it is now (`targetWasEmpty` false,
 * so every record not in its ledger is searched, not assumed new). The local service a run starts
 * itself is its state directory's alone, and a dry run writes nothing: neither takes a turn.
 * Undefined when the run was interrupted while it waited: nothing was loaded.
 */
export const inTargetTurn = async <T>(
  run: {
    target: ConnectedTarget;
    runId: string;
    since: Date;
    dryRun: boolean;
    signal?: AbortSignal;
    log?: Logger;
    /** The gates' folder the host chose (HostControls.gateDir). */
    gateDir?: string;
  },
  load: (targetWasEmpty: boolean) => Promise<T>,
): Promise<T | undefined> => {
  const { target, log } = run;
  if (run.dryRun || target.local || !target.client || !target.scopeId) return load(target.empty);
  const outcome = await enterTargetGate(
    target.scopeId,
    { runId: run.runId, since: run.since },
    {
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.gateDir ? { dir: run.gateDir } : {}),
      onWait: (holder) =>
        log?.warn(
          { runId: run.runId, target: target.label },
          `${describeHolder(holder)} is loading into ${target.label} as the same user from another state directory; this run loads when it is done`,
        ),
    },
  );
  if ('interrupted' in outcome) return undefined;
  if ('unavailable' in outcome) {
    log?.warn(
      { runId: run.runId, reason: outcome.unavailable },
      'loading without the machine-wide target gate',
    );
    return load(target.empty);
  }
  const { entered } = outcome;
  try {
    return await load(entered.waited ? false : target.empty);
  } finally {
    entered.release();
  }
};
