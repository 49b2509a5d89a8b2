import { describe, expect, it } from 'vitest';
import {
  createPacer,
  LongWait,
  type PacedStart,
  type Pacer,
  type PacingOptions,
} from '../../../src/client/index.js';

/**
 * The pacer on a simulated clock: `sleep` moves the clock instead of waiting, so the tests check
 * exact start times without real delays. Claims are taken one at a time, so one clock serves all.
 */
function simulated(options: Omit<PacingOptions, 'now' | 'sleep'> = {}) {
  let clock = 0;
  const slept: number[] = [];
  const pacer = createPacer({
    ...options,
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
  });
  return {
    pacer,
    slept,
    now: () => clock,
    advance: (ms: number) => (clock += ms),
  };
}

/** `count` attempts one after another, each answered at once with `status`. */
async function run(pacer: Pacer, count: number, status = 200): Promise<number[]> {
  const starts: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = await pacer.acquire();
    starts.push(start.at);
    pacer.settled(start, { status });
  }
  return starts;
}

/** The most starts inside any window of `windowMs` (a start at t counts for (t - windowMs, t]). */
function busiestWindow(starts: number[], windowMs: number): number {
  let most = 0;
  for (const end of starts)
    most = Math.max(most, starts.filter((s) => s > end - windowMs && s <= end).length);
  return most;
}

describe('pacer', () => {
  it('does not slow anything down before the first 429', async () => {
    const sim = simulated();
    const starts = await run(sim.pacer, 50);
    expect(starts.every((at) => at === 0)).toBe(true);
    expect(sim.slept).toEqual([]);
    expect(sim.pacer.rate()).toBeUndefined();
  });

  it('after a 429 with Retry-After, starts no attempt (first tries included) before that moment', async () => {
    const sim = simulated();
    const first = await sim.pacer.acquire();
    sim.advance(120);
    sim.pacer.settled(first, { status: 429, retryAfterMs: 1000 });
    expect(sim.pacer.notBefore()).toBe(1120);
    // A call that never saw the 429 waits as well.
    const next = await sim.pacer.acquire();
    expect(next.at).toBeGreaterThanOrEqual(1120);
  });

  it('keeps the later gate when a shorter Retry-After arrives', async () => {
    const sim = simulated();
    const a = await sim.pacer.acquire();
    const b = await sim.pacer.acquire();
    sim.pacer.settled(a, { status: 429, retryAfterMs: 2000 });
    sim.pacer.settled(b, { status: 429, retryAfterMs: 500 });
    expect(sim.pacer.notBefore()).toBe(2000);
  });

  it('paces at margin x the admitted count the 429 revealed, and keeps every window under it', async () => {
    const sim = simulated({ margin: 0.95 });
    // Twenty admitted within 500 ms, the twenty-first limited.
    for (let i = 0; i < 20; i += 1) {
      const at = await sim.pacer.acquire();
      sim.pacer.settled(at, { status: 201 });
      sim.advance(25);
    }
    const limited = await sim.pacer.acquire();
    sim.pacer.settled(limited, { status: 429, retryAfterMs: 1000 });
    expect(sim.pacer.rate()).toBeCloseTo(19, 5);

    const starts = await run(sim.pacer, 95, 201);
    expect(starts[0]).toBeGreaterThanOrEqual(limited.at + 1000);
    expect(busiestWindow(starts, 1000)).toBe(19);
    // Sustained: 95 starts at 19 per second take about 5 seconds, not longer.
    expect(starts.at(-1)! - starts[0]!).toBeLessThan(5000);
  });

  it('cuts the pace once per 429 at that pace, not once per attempt that was already in flight', async () => {
    const sim = simulated({ cut: 0.85 });
    const inFlight: PacedStart[] = [];
    for (let i = 0; i < 10; i += 1) inFlight.push(await sim.pacer.acquire());
    sim.advance(100);
    // The first eight admitted, the last two limited: one adjustment, from the first 429 only.
    for (const at of inFlight.slice(0, 8)) sim.pacer.settled(at, { status: 201 });
    sim.pacer.settled(inFlight[8]!, { status: 429, retryAfterMs: 100 });
    sim.pacer.settled(inFlight[9]!, { status: 429, retryAfterMs: 100 });
    expect(sim.pacer.rate()).toBeCloseTo(0.95 * 8, 5);

    // A 429 of an attempt started at the new pace, after five admitted at that pace: the count
    // (5 / s) says less than the pace, so it wins; and the pace never stays above 0.85 of itself.
    await run(sim.pacer, 5, 201);
    const limited = await sim.pacer.acquire();
    sim.pacer.settled(limited, { status: 429, retryAfterMs: 100 });
    expect(sim.pacer.rate()).toBeCloseTo(0.95 * 5, 5);
    await run(sim.pacer, 7, 201);
    const again = await sim.pacer.acquire();
    sim.pacer.settled(again, { status: 429, retryAfterMs: 100 });
    // At 4.75 / s at most 4 start per second; 3 admitted before the limited one in its window.
    expect(sim.pacer.rate()).toBeLessThanOrEqual(0.95 * 5 * 0.85);
    expect(sim.pacer.rate()).toBeCloseTo(0.95 * 3, 5);
  });

  it('grows the pace again after a quiet period, in case the 429s set it too low', async () => {
    const sim = simulated({ recoverAfterMs: 2000, recoverStep: 0.5 });
    const a = await sim.pacer.acquire();
    sim.pacer.settled(a, { status: 201 });
    const b = await sim.pacer.acquire();
    sim.pacer.settled(b, { status: 429 });
    const before = sim.pacer.rate()!;
    expect(before).toBeCloseTo(0.95, 5);
    sim.advance(1999);
    sim.pacer.settled(await sim.pacer.acquire(), { status: 201 });
    expect(sim.pacer.rate()).toBe(before);
    sim.advance(1);
    await sim.pacer.acquire();
    expect(sim.pacer.rate()).toBeCloseTo(before * 1.5, 5);
  });

  it('ignores answers other than 429 and failures without an answer', async () => {
    const sim = simulated();
    const a = await sim.pacer.acquire();
    sim.pacer.settled(a, { status: 503 });
    const b = await sim.pacer.acquire();
    sim.pacer.settled(b, {});
    expect(sim.pacer.rate()).toBeUndefined();
    expect(sim.pacer.notBefore()).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('pacer and cancellation (real timers)', () => {
  it('an aborted wait ends at once, for the waiter at the gate and for those queued behind it', async () => {
    const pacer = createPacer();
    const first = await pacer.acquire();
    pacer.settled(first, { status: 429, retryAfterMs: 60_000 });
    const controller = new AbortController();
    const atGate = pacer.acquire(controller.signal);
    const queued = pacer.acquire(controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(atGate).rejects.toThrow('stop');
    await expect(queued).rejects.toThrow('stop');
  });

  it('an aborted waiter does not hold up the next one', async () => {
    const pacer = createPacer();
    const first = await pacer.acquire();
    pacer.settled(first, { status: 429, retryAfterMs: 150 });
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(pacer.acquire(controller.signal)).rejects.toThrow('gone');
    await pacer.acquire();
    // It waited for the gate (about 150 ms), not for anything the aborted waiter left behind.
    expect(performance.now()).toBeGreaterThanOrEqual(pacer.notBefore());
  });
});

describe('pacer: a limit the target announces', () => {
  it('paces at the announced count per window, a little longer, before any 429', async () => {
    const sim = simulated();
    sim.pacer.announce({ count: 5, windowMs: 1000 });
    const starts = await run(sim.pacer, 40);
    // 5 a window of 1000 ms and then some: no calendar second of the service sees a sixth.
    expect(busiestWindow(starts, 1010)).toBe(5);
    // And close to it: the 36th start opens the eighth window, at most 4% late.
    expect(starts[35]! - starts[0]!).toBeGreaterThan(7000);
    expect(starts[35]! - starts[0]!).toBeLessThan(7000 * 1.04);
  });

  it('keeps the strictest limit announced; a looser one later changes nothing', async () => {
    const sim = simulated();
    sim.pacer.announce({ count: 2, windowMs: 1000 });
    sim.pacer.announce({ count: 50, windowMs: 1000 });
    expect(busiestWindow(await run(sim.pacer, 12), 1010)).toBe(2);
  });
});

describe('pacer: a 429 under an announced limit', () => {
  it('waits out its Retry-After but keeps the announced pace (no cut from the window count)', async () => {
    const sim = simulated();
    sim.pacer.announce({ count: 5, windowMs: 1000 });
    const before = await run(sim.pacer, 3);
    const limited = await sim.pacer.acquire();
    sim.pacer.settled(limited, { status: 429, retryAfterMs: 500 });
    expect(sim.pacer.rate()).toBeUndefined();
    const after = await run(sim.pacer, 20);
    expect(after[0]).toBeGreaterThanOrEqual(limited.at + 500);
    expect(busiestWindow([...before, limited.at, ...after], 1010)).toBe(5);
    // Still 5 a window: 20 starts open the fourth window after the first, not the seventh.
    expect(after[15]! - after[0]!).toBeLessThan(3 * 1000 * 1.04);
  });
});

describe('pacer: waits longer than allowed, and waits stopped', () => {
  it('refuses a start further away than maxWaitMs (LongWait with its length), without waiting', async () => {
    const { pacer, slept } = simulated({ maxWaitMs: 5000 });
    const start = await pacer.acquire();
    pacer.settled(start, { status: 429, retryAfterMs: 86_400_000 });
    const error = await pacer.acquire().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongWait);
    expect((error as LongWait).ms).toBe(86_400_000);
    expect(slept).toEqual([]);
  });

  it('stopWaiting ends a wait at the gate, but lets a start that needs none go', async () => {
    const pacer = createPacer({ maxWaitMs: 600_000 });
    const stop = new AbortController();
    const first = await pacer.acquire(undefined, stop.signal);
    pacer.settled(first, { status: 429, retryAfterMs: 200_000 });
    const waiting = pacer.acquire(undefined, stop.signal).catch((e: unknown) => e);
    stop.abort('SIGINT');
    expect(await waiting).toBe('SIGINT');

    const open = createPacer();
    await expect(open.acquire(undefined, stop.signal)).resolves.toHaveProperty('at');
  });
});
