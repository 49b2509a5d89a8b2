import type { CommandModule } from 'yargs';
import { runEpilogue } from '../help-text.js';
import { withRunFlags, type RunFlags } from './run-options.js';
import { helpText } from '../help-shown.js';

export const runCommand: CommandModule<object, RunFlags> = {
  command: 'run <inputs..>',
  describe: 'Import contacts: read, normalize, validate, then load into the target',
  builder: (yargs) => withRunFlags(yargs, 'run').epilogue(helpText(runEpilogue)) as never,
  // Loaded when the command runs: `--help` and the other commands never pay for the run's modules.
  handler: async (argv) => {
    const { executeRun } = await import('./execute-run.js');
    return executeRun(argv, Boolean((argv as RunFlags & { dryRun?: boolean }).dryRun));
  },
};
