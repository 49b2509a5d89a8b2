import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { HostControls } from '../run/host-controls.js';
import { gateDir } from '../state/index.js';

let collector: (() => void) | undefined;
let tried = false;

/**
 * V8's collector, exposed on first use: Node gives it only by flag, and setting the flag before
 * the first use is the documented way without a launcher. The command line owns its process, so
 * it may; the library never does.
 */
const collectGarbage = (): void => {
  if (!tried) {
    tried = true;
    try {
      setFlagsFromString('--expose-gc');
      collector = runInNewContext('gc') as () => void;
    } catch {
      collector = undefined;
    }
  }
  collector?.();
};

/**
 * What the command line decides for its own process (run/host-controls.ts): the target gates'
 * folder from `CONTACT_IMPORT_LOCK_DIR` or `XDG_CACHE_HOME`, the garbage collector after large
 * bodies.
 */
export const hostControls = (env: Readonly<Record<string, string | undefined>>): HostControls => ({
  collectGarbage,
  gateDir: gateDir(env),
});
