import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import { LEDGER_FILE, RUN_HOLDER_FILE, RUN_LOCK_FILE } from '../state/index.js';
import { LOCAL_DB_FILE, LOCAL_KEY_FILE } from './target.js';

/** What names one file on disk: the path with every link resolved, and its device and inode. */
interface FileIdentity {
  real: string;
  inode?: { dev: number; ino: number };
}

/** The real path of `absolute` when it exists (no exception for one that does not, which is most outputs). */
const existingRealPath = (absolute: string): string | undefined => {
  try {
    if (lstatSync(absolute, { throwIfNoEntry: false }) === undefined) return undefined;
    return realpathSync.native(absolute);
  } catch {
    // A dangling link, a loop, a file where a folder should be, a folder it may not read.
    return undefined;
  }
};

/**
 * The real path of `path` even when it does not exist yet: its folder's real path (the nearest
 * existing ancestor's) plus the rest. Two spellings of one file (`./a`, `../x/a`, a symlinked
 * folder) give one answer. `known` keeps the folders' answers for the other files of one check.
 */
const realPathOf = (path: string, known: Map<string, string>): string => {
  const absolute = resolve(path);
  const remembered = known.get(absolute);
  if (remembered !== undefined) return remembered;
  const parent = dirname(absolute);
  const real =
    existingRealPath(absolute) ??
    (parent === absolute ? absolute : join(realPathOf(parent, known), basename(absolute)));
  known.set(absolute, real);
  return real;
};

const identityOf = (path: string, known: Map<string, string>): FileIdentity => {
  const real = realPathOf(path, known);
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat ? { real, inode: { dev: stat.dev, ino: stat.ino } } : { real };
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
  const known = new Map<string, string>();
  const opened = inputs.filter((path) => path !== '-').map((path) => ({ path, id: identityOf(path, known) }));
  if (opened.length === 0) return;
  for (const output of outputs) {
    const written = identityOf(output, known);
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
