/** Bodies from this size on are followed by a collection. */
const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * Memory stays flat with wide records. Each request of a few MB leaves tens of MB of short-lived
 * strings (its body, its answer, the records' JSON); V8, given a multi-GB heap limit, lets them
 * pile up in old space for hundreds of MB before its first full collection, and the process keeps
 * that memory. After a large request the garbage is collected at once (tens of ms against a
 * multi-MB upload). Ordinary chunks (tens of KB) never trigger it. The collector is the host
 * process's: the command line passes it (`RunOptions.hostControls.collectGarbage`); without one, nothing.
 */
export const reclaimAfter = (bodyBytes: number, collectGarbage: (() => void) | undefined): void => {
  if (bodyBytes >= LARGE_BODY_BYTES) collectGarbage?.();
};
