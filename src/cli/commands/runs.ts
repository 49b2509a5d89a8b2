import type { CommandModule } from 'yargs';
import { isImportError } from '../../core/errors/index.js';
import { RUN_DEFAULTS } from '../../run/defaults.js';
import type { RunListing } from '../../run/runs-list.js';
import { FLAG_TABLE } from '../flag-table.js';
import { flagsFor } from '../help-shown.js';

interface RunsFlags {
  state?: string;
  json: boolean;
}

const totalsText = (totals: RunListing['totals']): string =>
  totals === null
    ? ''
    : Object.entries(totals)
        .filter(([, n]) => typeof n === 'number' && n > 0)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ');

/** One block per run, newest first: what a person reads in a scheduler's log. */
export const formatRuns = (runs: readonly RunListing[]): string =>
  runs.length === 0
    ? 'No runs in this state directory.\n'
    : runs
        .map((r) =>
          [
            `${r.runId}  ${r.command}${r.pipeline ? ` ${r.pipeline}` : ''}${r.sync ? ` --sync ${r.sync}` : ''}  ${r.status}${r.exitCode === null ? '' : ` (exit ${r.exitCode})`}`,
            `  started ${r.startedAt}${r.finishedAt ? `, finished ${r.finishedAt}` : ''}`,
            `  inputs: ${r.inputs.join(', ')}`,
            ...(r.totals ? [`  totals: ${totalsText(r.totals)}`] : []),
            ...(r.out ? [`  out: ${r.out}`] : []),
          ].join('\n'),
        )
        .join('\n') + '\n';

export const runsCommand: CommandModule<object, RunsFlags> = {
  command: 'runs',
  describe: 'List the runs the state directory holds, newest first',
  builder: (yargs) =>
    yargs
      .options(flagsFor(FLAG_TABLE.runs))
      .example('$0 runs --state .contact-import --json', 'the runs as JSON, for a scheduler'),
  handler: async (flags) => {
    try {
      const { listRuns } = await import('../../run/runs-list.js');
      const runs = listRuns(flags.state ?? RUN_DEFAULTS.stateDir);
      process.stdout.write(flags.json ? `${JSON.stringify(runs, null, 2)}\n` : formatRuns(runs));
    } catch (error) {
      if (!isImportError(error)) throw error;
      process.stderr.write(`contact-import: ${error.code}: ${error.message}\n`);
      process.exitCode = 2;
    }
  },
};
