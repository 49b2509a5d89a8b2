import { unlinkSync } from 'node:fs';

/**
 * The temporary files of atomic-file.ts made and not yet renamed or removed. A file of its own, so
 * the command line, which removes them on any exit, loads this alone at its start, not the
 * writers (nor node:crypto, which names the files).
 */
const pending = new Set<string>();

/** A temporary file just named, until it is committed or discarded. */
export const addPending = (temporary: string): void => {
  pending.add(temporary);
};

/** A temporary file renamed into place: no longer anyone's to remove. */
export const deletePending = (temporary: string): void => {
  pending.delete(temporary);
};

/** Removes a temporary file, whether or not it was made. */
export const discardFile = (temporary: string): void => {
  pending.delete(temporary);
  try {
    unlinkSync(temporary);
  } catch {
    // Never made, or already gone: nothing to remove.
  }
};

/** Every temporary file still pending, removed (the command line's exit, whatever the cause). */
export const discardTemporaryFiles = (): void => {
  for (const temporary of [...pending]) discardFile(temporary);
};
