/**
 * The longest delay one Node timer holds. A longer one fires after 1 ms with a
 * TimeoutOverflowWarning, so a wait built on it would spin instead of waiting.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` milliseconds, however long, in timers of at most MAX_TIMER_MS; rejects with the
 * signal's reason the moment `signal` aborts (at once if it already has).
 */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
  let left = Math.max(0, ms);
  do {
    const step = Math.min(left, MAX_TIMER_MS);
    await oneTimer(step, signal);
    left -= step;
  } while (left > 0);
}

const oneTimer = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as unknown);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as unknown);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `2025-03-01T12:00:00Z`: when a wait of `ms` from now ends, on the wall clock. */
export const wallClockAfter = (ms: number, now: number = Date.now()): string => {
  const at = now + ms;
  // Date's range ends at 8.64e15 ms: a wait past it (Retry-After: 1e300) has no date.
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15
    ? new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
    : 'no foreseeable time';
};
