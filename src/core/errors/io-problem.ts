/**
 * File-system failures that are the machine's state, not a bug: a full disk, a file-size limit, a
 * read-only mount, a folder where a file should go, a path too long, no permission. Each is a
 * run-level problem (exit 2) said in one line that names the path and what to do.
 */
type Advice = (path: string, elsewhere: string) => string;

const ADVICE: Record<string, Advice> = {
  ENOSPC: (p, e) => `no space left on the device holding ${p}; free some space or choose ${e}`,
  EDQUOT: (p, e) => `the disk quota is used up where ${p} goes; free some space or choose ${e}`,
  EFBIG: (p, e) =>
    `${p} would be larger than the file-size limit of this process (ulimit -f); raise the limit or choose ${e}`,
  EROFS: (p, e) => `${p} is on a read-only file system; choose ${e} you can write to`,
  EACCES: (p, e) => `permission denied for ${p}; choose ${e} you can write to`,
  EPERM: (p, e) => `permission denied for ${p}; choose ${e} you can write to`,
  EISDIR: (p, e) => `${p} is a folder where a file should be written; remove it or choose ${e}`,
  ENOTDIR: (p, e) => `a part of ${p} is a file, not a folder; choose ${e}`,
  ENAMETOOLONG: (p, e) => `the path ${p} is too long for the file system; choose ${e} with a shorter path`,
  EEXIST: (p) => `${p} already exists; remove it or choose another name`,
  EMFILE: (p) => `too many open files when opening ${p}; raise the limit (ulimit -n) and run again`,
  ENFILE: (p) => `too many open files on this system when opening ${p}; run again later`,
  EIO: (p) => `an I/O error on the device holding ${p}; check the disk and run again`,
  ENOENT: (p) => `${p} does not exist (or a folder on its way is missing); check the path`,
};

/**
 * SQLite's codes for the same failures (the ledger, the local service's database, the run's
 * scratch files): SQLite does not say which file, so the advice names the places it may be.
 */
const SQLITE_ADVICE: [RegExp, Advice][] = [
  [
    /^SQLITE_FULL/,
    (p, e) => `no space left for ${p} (a full disk or a file-size limit); free some space or choose ${e}`,
  ],
  [
    /^SQLITE_IOERR/,
    (p, e) =>
      `${p} could not be written (a full disk, a file-size limit or a failing disk); free some space or choose ${e}`,
  ],
  [/^SQLITE_READONLY/, (p, e) => `${p} is read-only; choose ${e} you can write to`],
];

/** The errno codes taken as the machine's state: their failure is exit 2, not an internal error. */
export const IO_PROBLEM_CODES: ReadonlySet<string> = new Set(Object.keys(ADVICE));

interface ErrnoLike {
  code?: unknown;
  path?: unknown;
  dest?: unknown;
  syscall?: unknown;
}

/** The errno (or SQLite) code of a file-system failure, when it is one this module explains. */
export const ioProblemCode = (error: unknown): string | undefined => {
  const code = (error as ErrnoLike | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  return IO_PROBLEM_CODES.has(code) || SQLITE_ADVICE.some(([pattern]) => pattern.test(code))
    ? code
    : undefined;
};

/**
 * One sentence for a file-system failure at `path` (the path the caller meant to write, else the
 * one the error names), or undefined when the error is not one of IO_PROBLEM_CODES. `flag` names
 * the option that chose the place (`--out`), so the advice says which to change.
 */
export const describeIoProblem = (error: unknown, path?: string, flag?: string): string | undefined => {
  const code = ioProblemCode(error);
  if (code === undefined) return undefined;
  const e = error as ErrnoLike;
  // A rename names the temporary file first; the destination is the file the user knows.
  const named = typeof e.dest === 'string' ? e.dest : typeof e.path === 'string' ? e.path : undefined;
  const elsewhere = flag ? `another ${flag}` : 'another folder';
  const sqlite = SQLITE_ADVICE.find(([pattern]) => pattern.test(code))?.[1];
  if (sqlite) {
    const where = path ?? "a database file (the ledger in --state, or the run's scratch files)";
    return `${sqlite(where, flag ? elsewhere : 'another --state or TMPDIR')} (${code})`;
  }
  const where = path ?? named ?? 'a file';
  return `${ADVICE[code]!(where, elsewhere)} (${code})`;
};
