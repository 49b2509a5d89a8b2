import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SUITE_TMP_ENV } from '../global-setup.js';

/**
 * Gives each test worker a home folder of its own inside the suite's temp folder, for its
 * in-process runs and every command line it spawns (they inherit the environment).
 *
 * Why: the target gates (src/state/target-gate.ts) live in the user's cache folder, shared by
 * every run on the machine, and 256 gate files are shared by all scopes. Two workers' tests whose
 * scopes meet in one file would wait for each other's whole load (a fault storm's, half a
 * minute), and the suite would leave its gate files in the real home. A worker runs its tests one
 * after another, so none of its runs waits for another's unless a test makes two runs meet on
 * purpose (target-turns.test.ts, with a gate folder of its own).
 */
export const useWorkerHome = (): void => {
  const suiteRoot = process.env[SUITE_TMP_ENV];
  if (suiteRoot === undefined) return;
  const home = join(suiteRoot, `home-${process.pid}`);
  if (process.env.HOME === home) return;
  mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  process.env.XDG_CACHE_HOME = join(home, '.cache');
};
