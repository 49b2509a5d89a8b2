import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeRetryDelay, MAX_TIMER_MS, RequestError, wait } from '../../../src/client/index.js';
import { runWithRetry } from '../../../src/client/retry.js';

const policy = { retries: 6, minDelayMs: 100, maxDelayMs: 1000 };
const failure = (retryable: boolean, retryAfterMs?: number) =>
  new RequestError({
    method: 'GET',
    path: '/x',
    code: retryable ? 'injected_fault' : 'invalid_body',
    message: 'failed',
    retryable,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
const abortError = () => new Error('aborted');

describe('computeRetryDelay', () => {
  it('doubles per retry, jitters between 1x and 2x, and caps at the maximum', () => {
    const low = { ...policy, random: () => 0 };
    const high = { ...policy, random: () => 0.999 };
    expect([1, 2, 3, 4, 5].map((n) => computeRetryDelay(n, low))).toEqual([100, 200, 400, 800, 1000]);
    expect(computeRetryDelay(1, high)).toBe(200);
    expect(computeRetryDelay(2, high)).toBe(400);
    expect(computeRetryDelay(4, high)).toBe(1000);
  });

  it('never returns less than Retry-After, even above the cap', () => {
    const low = { ...policy, random: () => 0 };
    expect(computeRetryDelay(1, low, 750)).toBe(750);
    expect(computeRetryDelay(1, low, 5000)).toBe(5000);
    expect(computeRetryDelay(3, low, 50)).toBe(400);
  });

  it('spreads delays with the default random source', () => {
    const delays = new Set(Array.from({ length: 20 }, () => computeRetryDelay(3, policy)));
    expect(delays.size).toBeGreaterThan(1);
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(400);
      expect(delay).toBeLessThanOrEqual(800);
    }
  });
});

describe('runWithRetry', () => {
  const fast = { retries: 3, minDelayMs: 1, maxDelayMs: 5 };

  it('retries retryable failures until success and reports each retry', async () => {
    const events: [number, number][] = [];
    let calls = 0;
    const result = await runWithRetry({
      policy: fast,
      abortError,
      onRetry: (_error, attempt, delayMs) => events.push([attempt, delayMs]),
      attempt: async (n) => {
        calls = n;
        if (n < 3) throw failure(true);
        return 'ok';
      },
    });
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(events.map(([attempt]) => attempt)).toEqual([1, 2]);
  });

  it('does not retry a final failure', async () => {
    let calls = 0;
    const error = await runWithRetry({
      policy: fast,
      abortError,
      attempt: async () => {
        calls += 1;
        throw failure(false);
      },
    }).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(error).toMatchObject({ code: 'invalid_body', attempts: 1 });
  });

  it('gives up after the retry budget with the last error and its attempt count', async () => {
    let calls = 0;
    const error = await runWithRetry({
      policy: fast,
      abortError,
      attempt: async () => {
        calls += 1;
        throw failure(true);
      },
    }).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toMatchObject({ code: 'injected_fault', attempts: 4 });
  });

  it('waits at least Retry-After before the next attempt', async () => {
    const times: number[] = [];
    await runWithRetry({
      policy: fast,
      abortError,
      attempt: async (n) => {
        times.push(performance.now());
        if (n === 1) throw failure(true, 120);
        return 'ok';
      },
    });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(115);
  });

  it('stops waiting and rejects when aborted between attempts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await runWithRetry({
      policy: { retries: 3, minDelayMs: 10_000, maxDelayMs: 10_000 },
      signal: controller.signal,
      abortError,
      attempt: async () => {
        throw failure(true);
      },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('aborted');
  });
});

describe('runWithRetry: waits the target asks for', () => {
  it('a Retry-After past maxWaitMs ends the call at once with tooLong, no wait, no retry', async () => {
    let calls = 0;
    const waited: number[] = [];
    const error = await runWithRetry({
      policy: { retries: 3, minDelayMs: 1, maxDelayMs: 5, maxWaitMs: 1000 },
      abortError,
      onRetry: (_e, _n, delayMs) => waited.push(delayMs),
      tooLong: (cause, delayMs) => new Error(`too long: ${delayMs} after ${cause.code}`),
      attempt: async () => {
        calls += 1;
        throw failure(true, 86_400_000);
      },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('too long: 86400000 after injected_fault');
    expect(calls).toBe(1);
    expect(waited).toEqual([]);
  });

  it('the backoff is capped by maxWaitMs: only the target can ask for longer', () => {
    const policy = { retries: 9, minDelayMs: 1000, maxDelayMs: 30_000, maxWaitMs: 2000, random: () => 0.99 };
    expect(computeRetryDelay(6, policy)).toBe(2000);
    expect(computeRetryDelay(6, policy, 5000)).toBe(5000);
  });
});

describe('wait', () => {
  // The spy wraps the fake setTimeout: it goes first, or the fake outlives this file in a shared
  // worker (vitest `isolate: false`) and every later timer there never fires.
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('splits a wait past the 32-bit timer limit into timers Node can hold', async () => {
    vi.useFakeTimers();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    let done = false;
    const waiting = wait(3_000_000_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000_000_000 - MAX_TIMER_MS);
    await waiting;
    expect(done).toBe(true);
    const delays = timers.mock.calls.map((call) => call[1] ?? 0);
    expect(delays).toEqual([MAX_TIMER_MS, 3_000_000_000 - MAX_TIMER_MS]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it('ends at once, with the reason, when its signal aborts', async () => {
    const controller = new AbortController();
    const waiting = wait(86_400_000, controller.signal).catch((e: unknown) => e);
    controller.abort('SIGINT');
    expect(await waiting).toBe('SIGINT');
  });
});
