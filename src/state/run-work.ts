import { chmodSync, existsSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { ImportError } from '../core/errors/index.js';
import { holdFile } from './os-lock.js';

/** The state directory's folder of run-scoped scratch files (staging, spilled issues). */
export const RUN_WORK_FOLDER = 'tmp';

/** A run's own scratch folder in the state directory, held while the run lives. */
export interface RunWork {
  /** `<state>/tmp/<runId>`, mode 0700: the only place a run writes scratch files. */
  readonly dir: string;
  /** Removes the folder (and the state directory, if this run made it and left it empty). Idempotent. */
  close(): void;
}

const LOCK_SUFFIX = '.lock';
/** A sweeper may hold a new run's lock file for an instant (it found it before it was locked). */
const HOLD_ATTEMPTS = 20;

const release = (db: Database.Database): void => {
  if (!db.open) return;
  db.exec('ROLLBACK');
  db.close();
};

const removeQuietly = (path: string): void => {
  try {
    rmdirSync(path);
  } catch {
    // Not empty (another run works there), or already gone: either way it is not ours to remove.
  }
};

/**
 * Removes what runs that died (`kill -9`, a power cut) left in `root`: every `<runId>` folder whose
 * `<runId>.lock` no live process holds. A running run, dry or live, holds its lock for its whole
 * life, so two runs on one state directory never remove each other's files; the operating system
 * drops the lock of a process that dies, however it dies.
 */
const sweep = (root: string, own: string): void => {
  const names = new Set(readdirSync(root).map((name) => name.replace(/\.lock(\.json)?$/, '')));
  names.delete(own);
  for (const name of names) {
    const lock = join(root, `${name}${LOCK_SUFFIX}`);
    let held: Database.Database | undefined;
    try {
      held = holdFile(lock);
    } catch {
      continue;
    }
    if (!held) continue;
    try {
      // The folder first: a sweep that dies half-way leaves the lock file, and the next one ends it.
      rmSync(join(root, name), { recursive: true, force: true });
      rmSync(lock, { force: true });
    } finally {
      release(held);
    }
  }
};

/**
 * Opens the run's scratch folder `<state>/tmp/<runId>` (0700), holding `<state>/tmp/<runId>.lock`
 * for the run's life, and sweeps what dead runs left there. Nothing of a run goes to the system's
 * temp folder: the state directory is the user's choice (and stays on their disk), and the next
 * run on it removes what a killed run left. A dry run or `validate` uses it too; one that found no
 * state directory removes it again when it ends.
 */
export const openRunWork = (stateDir: string, runId: string): RunWork => {
  const root = join(stateDir, RUN_WORK_FOLDER);
  const madeState = !existsSync(stateDir);
  const dir = join(root, runId);
  const lockFile = join(root, `${runId}${LOCK_SUFFIX}`);
  let lock: Database.Database | undefined;
  try {
    for (let attempt = 0; !lock && attempt < HOLD_ATTEMPTS; attempt += 1) {
      mkdirSync(root, { recursive: true, mode: 0o700 });
      lock = holdFile(lockFile);
    }
    if (!lock) throw new Error(`${lockFile} stayed locked by another process`);
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(root, 0o700);
    sweep(root, runId);
  } catch (error) {
    if (lock) release(lock);
    throw new ImportError(
      'state_error',
      `Cannot make the run's scratch folder in ${stateDir}: ${(error as Error).message}; expected a writable directory (--state).`,
      { file: root },
      { cause: error },
    );
  }
  const held = lock;
  return {
    dir,
    close: () => {
      if (!held.open) return;
      rmSync(dir, { recursive: true, force: true });
      rmSync(lockFile, { force: true });
      release(held);
      removeQuietly(root);
      if (madeState) removeQuietly(stateDir);
    },
  };
};
