import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, createWriteStream, openSync, renameSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeIoProblem, ImportError } from '../core/errors/index.js';
import { addPending, deletePending, discardFile } from './pending-temporaries.js';

export { discardFile, discardTemporaryFiles } from './pending-temporaries.js';

/**
 * Every file a run writes is written under a temporary name beside its final one and renamed into
 * place when complete (docs/design.md "Outputs never replace inputs"): a reader never sees half a
 * file, and whatever the final name held stays intact until the new file is whole. A write that
 * fails (full disk, file-size limit, read-only mount, a folder in the way) removes its temporary
 * file and throws ImportError('output_error') with one line naming the file and what to do.
 *
 * The API, for every writer of a run's files:
 * - `writeFileAtomic(path, text)`: a whole text at once;
 * - `AtomicWriteStream`: many writes, then `commit()` (or `discard()`);
 * - `temporaryPathFor` / `commitFile` / `discardFile`: a writer that writes the file itself.
 */

/**
 * A short name beside `path` (`.3f9a1c.tmp`, the length of `report.json`), so a path that fits
 * the file system's limits has a temporary name that fits too. Registered until committed or discarded.
 */
export const temporaryPathFor = (path: string): string => {
  const temporary = join(dirname(path), `.${randomBytes(3).toString('hex')}.tmp`);
  addPending(temporary);
  return temporary;
};

/**
 * The one-line error for a file that cannot be written: an ImportError('output_error') for a
 * failure of the file system (its errno code), the error itself otherwise (a bug stays a bug).
 * `flag` is the option that chose the folder (`--out`: a run's and an undo's files all go there).
 */
export const outputError = (path: string, error: unknown, flag = '--out'): unknown => {
  if (error instanceof ImportError) return error;
  if (typeof (error as { code?: unknown } | undefined)?.code !== 'string') return error;
  const io = describeIoProblem(error, path, flag);
  const message = io ?? `cannot write ${path}: ${(error as Error).message}`;
  return new ImportError('output_error', message, { file: path }, { cause: error });
};

/** Renames a finished temporary file to its final name (atomic within one folder). */
export const commitFile = (temporary: string, path: string): void => {
  try {
    renameSync(temporary, path);
    deletePending(temporary);
  } catch (error) {
    discardFile(temporary);
    throw outputError(path, error);
  }
};

/** Writes `text` to `path` through a temporary file: all of it, or nothing and an output_error. */
export const writeFileAtomic = (path: string, text: string): void => writePiecesAtomic(path, [text]);

/**
 * Writes `pieces`, made one at a time as they are written (a file never held whole), to `path`
 * through a temporary file: all of them, or nothing and an output_error.
 */
export const writePiecesAtomic = (path: string, pieces: Iterable<string>): void => {
  const temporary = temporaryPathFor(path);
  try {
    const fd = openSync(temporary, 'wx');
    try {
      // writeFileSync, not writeSync: a write cut short (a file-size limit) is carried on until it fails.
      for (const piece of pieces) writeFileSync(fd, piece);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    discardFile(temporary);
    throw outputError(path, error);
  }
  commitFile(temporary, path);
};

/**
 * A file written in many pieces. `write` never throws: the first stream error is kept, later
 * writes are dropped, and `commit()` throws it (as an output_error) after removing the temporary
 * file. Nothing is created on disk before the first write.
 */
export class AtomicWriteStream {
  readonly path: string;
  private temporary: string | undefined;
  private out: WriteStream | undefined;
  private failure: unknown;
  private readonly onFailure: ((error: unknown) => void) | undefined;

  /**
   * `onFailure`: told once, with the output_error, when a write fails, so a run can stop at once
   * instead of reading and sending on while nothing more reaches the file.
   */
  constructor(path: string, onFailure?: (error: unknown) => void) {
    this.path = path;
    this.onFailure = onFailure;
  }

  /** True once a write failed: the file will not be committed. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Queues `text`; false when the caller should wait for `drained()` before writing more. */
  write(text: string): boolean {
    if (this.failure !== undefined) return true;
    return this.open().write(text);
  }

  /** Resolves when the queued text has gone to the file system, or at once if a write failed. */
  async drained(): Promise<void> {
    const out = this.out;
    if (!out || this.failure !== undefined || !out.writableNeedDrain) return;
    await once(out, 'drain').catch(() => undefined);
  }

  /** Writes the rest, closes and renames into place; throws output_error when anything failed. */
  async commit(last = ''): Promise<void> {
    if (last !== '') this.write(last);
    const out = this.out;
    if (!out) {
      if (this.failure !== undefined) throw outputError(this.path, this.failure);
      return;
    }
    if (this.failure === undefined) {
      out.end();
      await once(out, 'close').catch(() => undefined);
    }
    this.out = undefined;
    if (this.failure !== undefined) {
      this.discard();
      throw outputError(this.path, this.failure);
    }
    commitFile(this.temporary!, this.path);
    this.temporary = undefined;
  }

  /** Drops what was written: the temporary file is removed, nothing replaces `path`. */
  discard(): void {
    this.out?.destroy();
    this.out = undefined;
    if (this.temporary !== undefined) discardFile(this.temporary);
    this.temporary = undefined;
  }

  private open(): WriteStream {
    if (this.out) return this.out;
    this.temporary = temporaryPathFor(this.path);
    const out = createWriteStream(this.temporary, { encoding: 'utf8', flags: 'wx' });
    out.on('error', (error) => {
      const first = this.failure === undefined;
      this.failure ??= error;
      out.destroy();
      if (first) this.onFailure?.(outputError(this.path, error));
    });
    this.out = out;
    return out;
  }
}
