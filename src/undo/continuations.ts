import { ImportError } from '../core/errors/index.js';
import type { Ledger, StoredRun, StoredRunRow } from '../state/index.js';
import { shellLine } from '../report/shell-quote.js';
import { UNDO_PIPELINE } from './locate.js';

/** Same inputs, in the same order: the same command as far as the ledger can tell. */
const sameInputs = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((input, i) => input === b[i]);

/**
 * The runs that continued `run`, oldest first: a run that did not complete (stopped by Ctrl-C, a
 * signal, kill -9 or a run-level problem) is continued by the next run of the same scope, pipeline
 * and inputs, and that one by the next, up to the first that completed. For the user they are one
 * import. Runs an undo already took back are left out.
 */
export const continuationsOf = (ledger: Ledger, run: StoredRun): string[] => {
  if (run.status === 'completed') return [];
  const rows = ledger.allRuns();
  const stored = rows.find((row) => row.runId === run.runId);
  if (!stored) return [];
  const undone = new Set(
    rows
      .filter((row) => row.pipeline === UNDO_PIPELINE && !row.dryRun && row.status === 'completed')
      .flatMap((row) => row.inputs),
  );
  const later = rows
    .filter(
      (row) =>
        row.startedAt > stored.startedAt &&
        row.pipeline === stored.pipeline &&
        !row.dryRun &&
        sameInputs(row.inputs, stored.inputs) &&
        ledger.findRun(row.runId)?.scopeId === run.scopeId,
    )
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  const chain: StoredRunRow[] = [];
  for (const row of later) {
    chain.push(row);
    if (row.status === 'completed') break;
  }
  return chain.filter((row) => !undone.has(row.runId)).map((row) => row.runId);
};

/**
 * An undo of a run that was stopped and continued is refused while its continuations stand: taken
 * back alone it would archive the people it created but leave those its continuations created,
 * and a field both wrote would be a conflict. The line names the runs to undo first, newest first.
 */
export const assertNoContinuations = (ledger: Ledger, run: StoredRun, stateDir: string): void => {
  const continuations = continuationsOf(ledger, run);
  if (continuations.length === 0) return;
  const newestFirst = [...continuations].reverse();
  const state = stateDir === '.contact-import' ? [] : ['--state', stateDir];
  const commands = [...newestFirst, run.runId]
    .map((id) => shellLine(['contact-import', 'undo', id, ...state]))
    .join(' && ');
  const those = continuations.length === 1 ? `run ${continuations[0]}` : `runs ${continuations.join(', ')}`;
  throw new ImportError(
    'undo_refused',
    `run ${run.runId} was stopped and continued by ${those} (the same command): together they are one import; undo ${newestFirst.length === 1 ? 'it' : 'them'} first, newest first, then this one: ${commands}`,
    { runId: run.runId, continuations },
  );
};
