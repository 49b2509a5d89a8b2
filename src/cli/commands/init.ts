import { writeFile } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import { isImportError } from '../../core/errors/index.js';
import { FLAG_TABLE } from '../flag-table.js';
import { initEpilogue } from '../help-text.js';
import { flagsFor, helpText, positionalFor } from '../help-shown.js';

interface InitArgs {
  input: string;
  out?: string;
  force: boolean;
}

export const initCommand: CommandModule<object, InitArgs> = {
  command: 'init <input>',
  describe: 'Draft a pipeline YAML for an unknown export from its header and sampled values',
  builder: (yargs) =>
    yargs
      .positional(
        'input',
        positionalFor({
          type: 'string',
          demandOption: true,
          describe: 'The export to draft a pipeline for',
        }),
      )
      .options(flagsFor(FLAG_TABLE.init))
      .epilogue(helpText(initEpilogue)) as never,
  handler: async (args) => {
    try {
      // Loaded here, not at startup: the readers and the draft's samplers are this command's only.
      const { draftPipelineYaml } = await import('../../run/draft-input.js');
      const yaml = await draftPipelineYaml(args.input);
      if (args.out === undefined) {
        process.stdout.write(yaml);
        return;
      }
      // `wx` refuses an existing file atomically: no window between a check and the write.
      await writeFile(args.out, yaml, { flag: args.force ? 'w' : 'wx' });
      process.stderr.write(
        `Draft pipeline written to ${args.out}; check it, then: contact-import validate ${args.out} ${args.input}\n`,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        process.stderr.write(
          `contact-import: ${args.out} already exists; expected a new file name, or --force to overwrite it\n`,
        );
      } else if (isImportError(error)) {
        process.stderr.write(`contact-import: ${error.message}\n`);
      } else if ((error as NodeJS.ErrnoException).code !== undefined) {
        process.stderr.write(`contact-import: cannot write ${args.out}: ${(error as Error).message}\n`);
      } else throw error;
      process.exitCode = 2;
    }
  },
};
