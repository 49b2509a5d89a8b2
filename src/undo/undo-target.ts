import { ImportError } from '../core/errors/index.js';
import { connectTarget, type ConnectedTarget } from '../run/target.js';
import type { UndoContext, UndoOptions } from './undo-context.js';

/** The run's target: the one given, else the local service when the run used it. */
export const connectFor = async (options: UndoOptions, ctx: UndoContext): Promise<ConnectedTarget> => {
  const ranOn = (ctx.stored.report as { target?: unknown } | undefined)?.target;
  if (!options.target && ranOn !== 'local')
    throw new ImportError(
      'config_invalid',
      `run ${ctx.stored.runId} loaded into ${String(ranOn ?? 'a target')}: give it with --target and its key`,
    );
  const target = await connectTarget({
    ...(options.target ? { target: options.target } : {}),
    stateDir: ctx.settings.stateDir,
    // The undo reads the contacts even when it changes nothing: the local service must run.
    dryRun: false,
    client: { concurrency: ctx.settings.concurrency, ...options.client },
  });
  if (target.scopeId !== ctx.stored.scopeId) {
    await target.close();
    throw new ImportError(
      'undo_refused',
      `run ${ctx.stored.runId} was loaded into another target or with another API key than ${target.label}`,
    );
  }
  return target;
};
