import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import type { Ledger, StoredRun } from '../state/index.js';

/** The pipeline name an undo records itself under in the ledger's runs. */
export const UNDO_PIPELINE = 'undo';

/** `<run-dir | run-id>` names a folder (else a run id). */
export const isRunFolder = (reference: string): boolean =>
  existsSync(reference) && statSync(reference).isDirectory();

/**
 * `<run-dir | run-id>`: a folder holding a run's report.json names its run; anything else is a
 * run id. An undo's own folder is refused (an undo is not taken back).
 */
export const runIdOf = (reference: string): string => {
  if (!isRunFolder(reference)) return reference;
  const path = join(reference, 'report.json');
  let report: { runId?: unknown; kind?: unknown };
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as typeof report;
  } catch (error) {
    throw new ImportError(
      'run_not_found',
      `${reference} is not a run's folder: ${path} cannot be read (${(error as Error).message}); give the run's folder or its id`,
      { file: path },
    );
  }
  if (report.kind === 'undo')
    throw new ImportError('undo_refused', `${reference} holds an undo, not a run; an undo is not undone`);
  if (typeof report.runId !== 'string')
    throw new ImportError('run_not_found', `${path} names no runId; give the run's folder or its id`, {
      file: path,
    });
  return report.runId;
};

/** The run as the ledger holds it; refused when it changed nothing an undo could take back. */
export const findUndoableRun = (ledger: Ledger, runId: string, stateDir: string): StoredRun => {
  const run = ledger.findRun(runId);
  if (!run)
    throw new ImportError(
      'run_not_found',
      `no run ${runId} in the ledger of ${stateDir}; give the --state the run used`,
      { runId },
    );
  if (run.pipeline === UNDO_PIPELINE)
    throw new ImportError('undo_refused', `${runId} is an undo; an undo is not undone`, { runId });
  if (run.dryRun)
    throw new ImportError('undo_refused', `${runId} was a dry run: it changed nothing`, { runId });
  return run;
};
