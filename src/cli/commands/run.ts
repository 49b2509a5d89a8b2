import type { CommandModule } from 'yargs';
import { executeRun } from './execute-run.js';
import { withRunFlags, type RunFlags } from './run-options.js';

export const runCommand: CommandModule<object, RunFlags> = {
  command: 'run <inputs..>',
  describe: 'Import contacts: read, normalize, validate, then load into the target',
  builder: (yargs) =>
    withRunFlags(yargs)
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'stop before loading',
      })
      .option('reread', {
        type: 'boolean',
        default: false,
        describe: 'read every input even when it is byte-identical to the last run (no shortcut)',
      }) as never,
  handler: (argv) => executeRun(argv, Boolean((argv as RunFlags & { dryRun?: boolean }).dryRun)),
};
