import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders tempDir() made for the test file running now, removed when its tests are done. */
const madeHere: string[] = [];

/**
 * A fresh folder, removed when the test file's tests are done (test/support/per-file.ts), and
 * anyway with the suite temp root (test/global-setup.ts): a run under another config, or without
 * the global setup, leaves none.
 */
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-e2e-'));
  madeHere.push(dir);
  return dir;
};

/** Removes the folders made since the last call: the test files of a worker share this module. */
export const removeTempDirs = (): void => {
  for (const dir of madeHere.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
};
