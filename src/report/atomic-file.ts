import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Every file a run writes is written under a temporary name beside its final one and renamed into
 * place when complete (DESIGN.md "Outputs never replace inputs"): a reader never sees half a
 * file, and whatever the final name held stays intact until the new file is whole.
 */
export const temporaryPathFor = (path: string): string =>
  join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(3).toString('hex')}.tmp`);

/** Renames a finished temporary file to its final name (atomic within one folder). */
export const commitFile = (temporary: string, path: string): void => renameSync(temporary, path);

/** Writes `text` to `path` through a temporary file. */
export const writeFileAtomic = (path: string, text: string): void => {
  const temporary = temporaryPathFor(path);
  writeFileSync(temporary, text);
  commitFile(temporary, path);
};
