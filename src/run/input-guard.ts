import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import { LEDGER_FILE, RUN_HOLDER_FILE, RUN_LOCK_FILE } from '../state/index.js';
import { LOCAL_DB_FILE, LOCAL_KEY_FILE } from './target.js';

/** What names one file on disk: the path with every link resolved, and its device and inode. */
interface FileIdentity {
  real: string;
  inode?: { dev: number; ino: number };
}

/**
 * The real path of `path` even when it does not exist yet: its folder's real path (the nearest
 * existing ancestor's) plus the rest. Two spellings of one file (`./a`, `../x/a`, a symlinked
 * folder) give one answer.
 */
const realPathOf = (path: string): string => {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(realPathOf(parent), basename(absolute));
  }
};

const identityOf = (path: string): FileIdentity => {
  const real = realPathOf(path);
  try {
    const stat = statSync(path);
    return { real, inode: { dev: stat.dev, ino: stat.ino } };
  } catch {
    return { real };
  }
};

const sameFile = (a: FileIdentity, b: FileIdentity): boolean =>
  a.real === b.real ||
  (a.inode !== undefined &&
    b.inode !== undefined &&
    a.inode.dev === b.inode.dev &&
    a.inode.ino === b.inode.ino);

/**
 * docs/design.md "Outputs never replace inputs": refuses a run, before it reads or writes anything, when
 * a file it may write (in `--out` or the state directory) is one of its inputs under any name: the
 * same real path, or the same inode (a hard link). stdin (`-`) is no file. An input that does not
 * exist is left to the reader to report.
 */
export const assertOutputsSpareInputs = (inputs: readonly string[], outputs: readonly string[]): void => {
  const opened = inputs.filter((path) => path !== '-').map((path) => ({ path, id: identityOf(path) }));
  if (opened.length === 0) return;
  for (const output of outputs) {
    const written = identityOf(output);
    const input = opened.find((candidate) => sameFile(candidate.id, written));
    if (!input) continue;
    throw new ImportError(
      'output_replaces_input',
      `the output ${output} would replace the input ${input.path}; give --out a folder that holds no input ` +
        '(for example a new runs/<name>), or move the input out of it',
      { file: input.path, output },
    );
  }
};

/** The files a run may write in its state directory (SQLite adds -wal, -shm and -journal). */
export const stateFilesOf = (stateDir: string): string[] =>
  [LEDGER_FILE, LOCAL_DB_FILE]
    .flatMap((name) => ['', '-wal', '-shm', '-journal'].map((suffix) => `${name}${suffix}`))
    .concat(LOCAL_KEY_FILE, RUN_LOCK_FILE, RUN_HOLDER_FILE)
    .map((name) => join(stateDir, name));
