import pRetry from 'p-retry';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRequestError, type RequestError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Base delay before the first retry; doubled for each further retry. */
  minDelayMs: number;
  /** Cap of the backoff; a longer `Retry-After` still wins. */
  maxDelayMs: number;
  /** Source of jitter in [0, 1); injectable so tests can pin it. */
  random?: () => number;
}

/**
 * Delay before retry number `retryNumber` (1 = the first retry): exponential backoff with jitter,
 * `min * 2^(n-1) * (1 + random)` capped at `maxDelayMs`, and never shorter than the service's
 * `Retry-After`: waiting less would only earn another 429.
 */
export function computeRetryDelay(retryNumber: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const random = policy.random ?? Math.random;
  const base = policy.minDelayMs * 2 ** Math.max(0, retryNumber - 1);
  const backoff = Math.min(policy.maxDelayMs, Math.round(base * (1 + random())));
  return Math.max(backoff, retryAfterMs ?? 0);
}

export interface RetryRunOptions<T> {
  /** One attempt; `attemptNumber` starts at 1. Must throw RequestError for anything retryable. */
  attempt: (attemptNumber: number) => Promise<T>;
  policy: RetryPolicy;
  signal?: AbortSignal;
  /** Called before waiting for a retry; `attemptNumber` is the attempt that failed. */
  onRetry?: (error: RequestError, attemptNumber: number, delayMs: number) => void;
  /** The error to reject with when `signal` aborts while waiting between attempts. */
  abortError: () => Error;
  /** Retryable failures this says are final for this call (the start probe's connect failures). */
  final?: (error: RequestError) => boolean;
}

/**
 * Run `attempt` until it succeeds, fails finally, runs out of retries, or is aborted. p-retry runs
 * the loop with zero delay of its own: the wait happens in `shouldRetry`, where the error (and so
 * its `Retry-After`) is known.
 */
export function runWithRetry<T>(options: RetryRunOptions<T>): Promise<T> {
  const { policy, signal } = options;
  return pRetry(options.attempt, {
    retries: policy.retries,
    minTimeout: 0,
    factor: 1,
    onFailedAttempt: ({ error, attemptNumber }) => {
      if (isRequestError(error)) error.attempts = attemptNumber;
    },
    shouldRetry: async ({ error, attemptNumber }) => {
      if (!isRequestError(error) || !error.retryable || options.final?.(error)) return false;
      if (signal?.aborted) throw options.abortError();
      const delayMs = computeRetryDelay(attemptNumber, policy, error.retryAfterMs);
      options.onRetry?.(error, attemptNumber, delayMs);
      try {
        await sleep(delayMs, undefined, signal ? { signal } : {});
      } catch {
        throw options.abortError();
      }
      return true;
    },
  });
}
