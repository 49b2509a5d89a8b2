/**
 * The places of the load stage a caller can observe (`LoadOptions.onStep`, from the run's
 * `hooks.onStep`). The crash tests stop a run at one of them exactly, instead of racing a timer
 * (test/support/hooked-run.mjs SIGKILLs its process the n-th time a step is passed):
 *   group            a group or custom field was created on the target, not yet in the ledger
 *   create-recorded  a create chunk is in the ledger, not yet sent
 *   create-answered  the target answered a create, the ledger does not know the ids yet
 *   create-done      a create chunk is complete in the ledger (between chunks)
 * No hook (every run of the command line): one optional call per step.
 */
export type LoadStep = 'group' | 'create-recorded' | 'create-answered' | 'create-done';

export type StepHook<S extends string = LoadStep> = (step: S) => void;
