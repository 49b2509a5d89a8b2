import { basename, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { API_KEY_ENV, resolveApiKey } from '../../client/api-key.js';
import { parseTargetUrl } from '../../client/target-url.js';
import { isImportError } from '../../core/errors/index.js';
import type { TargetSpec } from '../../run/target.js';
import type { UndoResult } from '../../undo/index.js';
import { FLAG_TABLE } from '../flag-table.js';
import { undoEpilogue } from '../help-text.js';
import { stopOnSignals } from '../signals.js';
import { flagsFor, helpText } from '../help-shown.js';

interface UndoFlags {
  run: string;
  target?: string;
  apiKeyFile?: string;
  state: string;
  out?: string;
  dryRun: boolean;
  json: boolean;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
}

/** The key comes from the environment or a file, never from a flag value (as for `run`). */
const resolveTarget = async (flags: UndoFlags): Promise<TargetSpec | undefined> => {
  const given = flags.target ?? process.env.CONTACT_IMPORT_TARGET;
  if (!given) return undefined;
  const { url } = parseTargetUrl(given, flags.target !== undefined ? '--target' : 'CONTACT_IMPORT_TARGET');
  const apiKey = await resolveApiKey({
    env: process.env,
    ...(flags.apiKeyFile ? { file: flags.apiKeyFile } : {}),
  });
  return { url, apiKey, keySource: flags.apiKeyFile ? `--api-key-file ${flags.apiKeyFile}` : API_KEY_ENV };
};

const summary = ({ report, reportPath }: UndoResult, files: string[]): string => {
  const t = report.totals;
  const verb = report.dryRun ? 'Dry run of undo' : 'Undo';
  const lines = [
    `${verb} of run ${report.undoOf} on ${report.target}: ${report.status}`,
    `  what the run did (contacts created or updated, groups and custom fields created): ${t.read}`,
    `  restored ${t.restored}, archived ${t.archived}, conflicts ${t.conflicts}, not undone ${t.notUndone}, failed ${t.failed}` +
      (report.earlier > 0 ? ` (${report.earlier} settled by an earlier undo)` : ''),
    `  requests ${report.requests.sent} (retried ${report.requests.retried}, failed ${report.requests.failed})`,
    `Files: ${files.join(', ')}`,
    `Exit ${report.exitCode}: ${report.exitReason}`,
  ];
  void reportPath;
  return lines.join('\n');
};

/** `contact-import undo <run-dir | run-id>`: flags -> undoRun -> summary and exit code. */
export const undoCommand: CommandModule<object, UndoFlags> = {
  command: 'undo <run>',
  describe: 'Take a finished run back on its target: archive what it created, restore what it changed',
  builder: (yargs) =>
    yargs
      .positional('run', {
        type: 'string',
        demandOption: true,
        describe: "the run's folder (runs/<run-id>) or id",
      })
      .options(flagsFor(FLAG_TABLE.undo))
      .epilogue(helpText(undoEpilogue)) as never,
  handler: async (flags) => {
    const controller = stopOnSignals();
    let result: UndoResult;
    try {
      const target = await resolveTarget(flags);
      const { undoRun } = await import('../../undo/index.js');
      const { createLogger } = await import('../logger.js');
      result = await undoRun({
        run: flags.run,
        ...(target ? { target } : {}),
        stateDir: flags.state,
        ...(flags.out ? { outDir: flags.out } : {}),
        dryRun: flags.dryRun,
        signal: controller.signal,
        logger: createLogger(flags.logLevel),
      });
    } catch (error) {
      if (!isImportError(error)) throw error;
      process.stderr.write(`contact-import: ${error.code}: ${error.message}\n`);
      process.exit(2);
    }
    const files = [
      result.reportPath,
      ...(result.htmlPath ? [result.htmlPath] : []),
      result.issuesPath,
      result.outcomesPath,
      result.changesPath,
    ];
    if (flags.json) {
      const written = Object.fromEntries(files.map((file) => [basename(file), resolve(file)]));
      process.stdout.write(`${JSON.stringify({ ...result.report, files: written }, null, 2)}\n`);
    } else process.stdout.write(`${summary(result, files)}\n`);
    const { error } = result.report;
    if (error) process.stderr.write(`contact-import: ${error.code}: ${error.message}\n`);
    process.exit(result.report.exitCode);
  },
};
