import { describe, expect, it } from 'vitest';
import { TaskWindow } from '../../../src/load/window.js';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('TaskWindow', () => {
  it('never runs more than its size at once, and drain waits for all', async () => {
    const window = new TaskWindow(2);
    let running = 0;
    let peak = 0;
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const starting = gates.map((gate, i) =>
      window.run(async () => {
        started.push(i);
        running += 1;
        peak = Math.max(peak, running);
        await gate.promise;
        running -= 1;
      }),
    );
    await new Promise((r) => setTimeout(r, 0));
    // Two places: the first two start, the third waits for one of them to finish.
    expect(started).toEqual([0, 1]);
    gates.forEach((g) => g.resolve());
    await Promise.all(starting);
    await window.drain();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBeLessThanOrEqual(2);
    expect(running).toBe(0);
  });

  it('after a failure starts nothing new, lets the running task finish, and drain rethrows the first error', async () => {
    const window = new TaskWindow(2);
    const slow = deferred();
    let slowFinished = false;
    await window.run(async () => {
      await slow.promise;
      slowFinished = true;
    });
    await window.run(async () => {
      throw new Error('boom');
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(window.failed).toBe(true);
    let ranAfter = false;
    slow.resolve();
    expect(await window.run(async () => void (ranAfter = true))).toBe(false);
    await expect(window.drain()).rejects.toThrow('boom');
    expect(slowFinished).toBe(true);
    expect(ranAfter).toBe(false);
  });

  it('keeps the weights in flight under its limit, though one heavy task alone always runs', async () => {
    const window = new TaskWindow(4, 10);
    const gates = Array.from({ length: 4 }, deferred);
    const started: number[] = [];
    const weights = [6, 6, 12, 1];
    // As the loader calls it: one task at a time, each call returns once its task started.
    const feeding = (async () => {
      for (const [i, gate] of gates.entries()) {
        await window.run(async () => {
          started.push(i);
          await gate.promise;
        }, weights[i]);
      }
    })();
    const tick = () => new Promise((r) => setTimeout(r, 0));
    await tick();
    expect(started).toEqual([0]);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    await tick();
    // 12 is over the limit on its own: it runs alone, and the light one waits for it.
    expect(started).toEqual([0, 1, 2]);
    gates[2]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[3]!.resolve();
    await feeding;
    await window.drain();
  });
});
