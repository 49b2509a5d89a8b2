import type { CommandModule } from 'yargs';
import { executeRun } from './execute-run.js';
import { withRunFlags, type RunFlags } from './run-options.js';

export const validateCommand: CommandModule<object, RunFlags> = {
  command: 'validate <inputs..>',
  describe: 'Check export files without loading anything (same as run --dry-run)',
  builder: (yargs) => withRunFlags(yargs) as never,
  handler: (argv) => executeRun(argv, true),
};
