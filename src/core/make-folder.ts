import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p` that fails with the real reason: Node's recursive mkdir says ENOENT when the folder
 * cannot be made on a read-only file system (or without permission), which reads as "a typo in
 * the path". On failure the first missing folder is made alone, and that error (EROFS, EACCES,
 * ENOTDIR...) is thrown instead.
 */
export const makeFolder = (dir: string): void => {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw causeOf(dir) ?? error;
  }
};

const causeOf = (dir: string): unknown => {
  let missing = resolve(dir);
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  try {
    mkdirSync(missing);
    return undefined;
  } catch (error) {
    return error;
  }
};
