import { isRequestError, type RequestError } from './errors.js';
import { wait } from './wait.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Base delay before the first retry; doubled for each further retry. */
  minDelayMs: number;
  /** Cap of the backoff; a longer `Retry-After` still wins. */
  maxDelayMs: number;
  /**
   * The longest wait before a retry: a `Retry-After` longer than this ends the call (`tooLong`)
   * instead of waiting. The backoff is capped by it too. Default: no limit.
   */
  maxWaitMs?: number;
  /** Source of jitter in [0, 1); injectable so tests can pin it. */
  random?: () => number;
}

/**
 * Delay before retry number `retryNumber` (1 = the first retry): exponential backoff with jitter,
 * `min * 2^(n-1) * (1 + random)` capped at `maxDelayMs` (and `maxWaitMs`), and never shorter than
 * the service's `Retry-After`: waiting less would only earn another 429.
 */
export function computeRetryDelay(retryNumber: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const random = policy.random ?? Math.random;
  const base = policy.minDelayMs * 2 ** Math.max(0, retryNumber - 1);
  const cap = Math.min(policy.maxDelayMs, policy.maxWaitMs ?? Infinity);
  const backoff = Math.min(cap, Math.round(base * (1 + random())));
  return Math.max(backoff, retryAfterMs ?? 0);
}

export interface RetryRunOptions<T> {
  /** One attempt; `attemptNumber` starts at 1. Must throw RequestError for anything retryable. */
  attempt: (attemptNumber: number) => Promise<T>;
  policy: RetryPolicy;
  /** Ends a wait between attempts at once (the call's cancellation, and the run's stop). */
  signal?: AbortSignal;
  /** Called before waiting for a retry; `attemptNumber` is the attempt that failed. */
  onRetry?: (error: RequestError, attemptNumber: number, delayMs: number) => void;
  /** The error to reject with when `signal` aborts while waiting between attempts. */
  abortError: () => Error;
  /** The error to reject with when the target asks for a wait over `policy.maxWaitMs`. */
  tooLong?: (error: RequestError, delayMs: number) => Error;
  /** Retryable failures this says are final for this call (the start probe's connect failures). */
  final?: (error: RequestError) => boolean;
}

/**
 * Runs `attempt` until it succeeds, fails finally, runs out of retries, or is aborted, waiting
 * between attempts as computeRetryDelay says. The one retry loop of the client: every request
 * goes through it, and every wait in it ends the moment `signal` aborts.
 */
export async function runWithRetry<T>(options: RetryRunOptions<T>): Promise<T> {
  const { policy, signal } = options;
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await options.attempt(attemptNumber);
    } catch (error) {
      if (!isRequestError(error)) throw error;
      error.attempts = attemptNumber;
      if (!error.retryable || options.final?.(error) || attemptNumber > policy.retries) throw error;
      const delayMs = computeRetryDelay(attemptNumber, policy, error.retryAfterMs);
      if (delayMs > (policy.maxWaitMs ?? Infinity)) throw options.tooLong?.(error, delayMs) ?? error;
      if (signal?.aborted) throw options.abortError();
      options.onRetry?.(error, attemptNumber, delayMs);
      try {
        await wait(delayMs, signal);
      } catch {
        throw options.abortError();
      }
    }
  }
}
