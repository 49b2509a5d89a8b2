import { statSync } from 'node:fs';

/**
 * Whether a path is a regular file, the only kind of input that can be read twice: a look ahead
 * at stdin or a FIFO (a pre-check of its columns or numbers) would take the records from the run.
 */
export const isRegularFile = (path: string): boolean => {
  if (path === '-') return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
