import type { CommandModule } from 'yargs';
import { isImportError } from '../../core/errors/index.js';
import type { PipelineSummary } from '../../mapping/pipeline.js';
import { FLAG_TABLE } from '../flag-table.js';
import { pipelinesEpilogue } from '../help-text.js';
import { flagsFor, helpText } from '../help-shown.js';

interface PipelinesArgs {
  json: boolean;
}

/** Name and description of each built-in, aligned for a terminal. */
export const formatPipelineList = (pipelines: PipelineSummary[]): string => {
  const width = Math.max(0, ...pipelines.map((p) => p.name.length));
  const indent = ' '.repeat(width + 2);
  const line = (p: PipelineSummary) =>
    `${p.name.padEnd(width)}  ${p.description}`.trimEnd() +
    (p.alsoReads.length > 0 ? `\n${indent}also reads: ${p.alsoReads.join('; ')}` : '');
  return pipelines.map(line).join('\n') + '\n';
};

export const pipelinesCommand: CommandModule<object, PipelinesArgs> = {
  command: 'pipelines',
  describe: 'List the built-in pipelines',
  builder: (yargs) => yargs.options(flagsFor(FLAG_TABLE.pipelines)).epilogue(helpText(pipelinesEpilogue)),
  handler: async (args) => {
    try {
      // Loaded here, not at startup: the YAML parser and the schema are this command's only.
      const { listPipelines } = await import('../../mapping/load.js');
      const pipelines = await listPipelines();
      process.stdout.write(
        args.json ? `${JSON.stringify(pipelines, null, 2)}\n` : formatPipelineList(pipelines),
      );
    } catch (error) {
      if (!isImportError(error)) throw error;
      process.stderr.write(`contact-import: ${error.message}\n`);
      process.exitCode = 2;
    }
  },
};
