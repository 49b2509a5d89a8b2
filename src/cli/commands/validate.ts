import type { CommandModule } from 'yargs';
import { validateEpilogue } from '../help-text.js';
import { withRunFlags, type RunFlags } from './run-options.js';
import { helpText } from '../help-shown.js';

export const validateCommand: CommandModule<object, RunFlags> = {
  command: 'validate <inputs..>',
  describe: 'Check export files without loading anything (same as run --dry-run)',
  // Only what applies to checking files: no target, key or request flags (validate sends nothing).
  builder: (yargs) => withRunFlags(yargs, 'validate').epilogue(helpText(validateEpilogue)) as never,
  // Loaded when the command runs, as for `run`.
  handler: async (argv) => {
    const { executeRun } = await import('./execute-run.js');
    return executeRun(argv, true, 'validate');
  },
};
