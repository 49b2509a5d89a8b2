import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bodies from this size on are followed by a collection. */
const LARGE_BODY_BYTES = 1024 * 1024;

let collect: (() => void) | undefined;
let tried = false;

/**
 * Memory stays flat with wide records. Each request of a few MB leaves tens of MB of short-lived
 * strings (its body, its answer, the records' JSON); V8, given a multi-GB heap limit, lets them
 * pile up in old space for hundreds of MB before its first full collection, and the process keeps
 * that memory. After a large request the garbage is collected at once (tens of ms against a
 * multi-MB upload). Ordinary chunks (tens of KB) never trigger it. Node exposes the collector only
 * by flag; setting it here, before its first use, is the documented way without a launcher.
 */
export const reclaimAfter = (bodyBytes: number): void => {
  if (bodyBytes < LARGE_BODY_BYTES) return;
  if (!tried) {
    tried = true;
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = undefined;
    }
  }
  collect?.();
};
