import type { LoadStep, StepHook } from '../load/steps.js';
import type { SyncStep } from '../sync/index.js';

/** The steps a run passes (load/steps.ts), and `read`: the reader reported progress (every 1,024 records, and at each input's end). */
export type RunStep = 'read' | LoadStep | SyncStep;

/**
 * Hooks a caller of `runImport` injects to observe a run at exact places; the command line never
 * sets them and nothing reads them from the environment. The crash tests set them
 * through test/support/hooked-run.mjs, which stops the process at a planned step.
 */
export interface RunHooks {
  /** Called each time the run passes a step. */
  onStep?: StepHook<RunStep>;
}
