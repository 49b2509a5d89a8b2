import { makeFolder } from '../core/make-folder.js';
import { join } from 'node:path';
import { describeIoProblem, ImportError } from '../core/errors/index.js';
import { describeHolder, lockHolder, tryLock, type HeldLock } from './os-lock.js';

/** The state directory's lock file (an empty SQLite file: see os-lock.ts). */
export const RUN_LOCK_FILE = 'run.lock';
/** Who holds it: pid, run id, since when. */
export const RUN_HOLDER_FILE = `${RUN_LOCK_FILE}.json`;

export type RunLock = HeldLock;

/**
 * docs/design.md "One run per state directory": takes the state directory for a run's whole life, or
 * throws ImportError('state_locked') at once naming the holder (pid, run id, since when). The lock
 * is the operating system's, so a run that dies, even by `kill -9`, leaves the directory free;
 * it also excludes a second run in the same process.
 */
export const acquireRunLock = async (dir: string, run: { runId: string; since: Date }): Promise<RunLock> => {
  const file = join(dir, RUN_LOCK_FILE);
  let attempt;
  try {
    makeFolder(dir);
    attempt = tryLock(file, run);
  } catch (error) {
    throw new ImportError(
      'state_error',
      `Cannot lock the state directory ${dir}: ${describeIoProblem(error, dir, '--state') ?? `${(error as Error).message}; expected a writable directory (--state)`}.`,
      { file },
      { cause: error },
    );
  }
  if ('held' in attempt) return attempt.held;
  const holder = await lockHolder(file);
  throw new ImportError(
    'state_locked',
    `the state directory ${dir} is in use by ${describeHolder(holder)}; wait for it to end, or give this run another --state`,
    { file: dir, ...(holder ? { holder } : {}) },
  );
};
