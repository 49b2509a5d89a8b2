import { describe, expect, it } from 'vitest';
import { lookAhead, type Ahead } from '../../../src/load/look-ahead.js';

/** Work whose completion the test controls: each started item waits until `finish(item)`. */
const controlled = () => {
  const started: number[] = [];
  const waiting = new Map<number, { resolve: (v: string) => void; reject: (e: unknown) => void }>();
  return {
    started,
    work: (item: number) =>
      new Promise<string>((resolve, reject) => {
        started.push(item);
        waiting.set(item, { resolve, reject });
      }),
    finish: (item: number) => waiting.get(item)!.resolve(`done ${item}`),
    fail: (item: number) => waiting.get(item)!.reject(new Error(`failed ${item}`)),
  };
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('lookAhead', () => {
  it('runs the work of `depth` items ahead of the one consumed, never more, and yields in order', async () => {
    const w = controlled();
    const ahead = lookAhead([1, 2, 3, 4, 5, 6], w.work, 2, () => false);
    const first = ahead.next();
    await tick();
    // The consumer waits for item 1: items 2 and 3 are already under way, 4 is not.
    expect(w.started).toEqual([1, 2, 3]);
    // Item 3 finishing first changes nothing: results come in source order.
    w.finish(3);
    w.finish(1);
    expect(((await first).value as Ahead<number, string>).item).toBe(1);
    // While the consumer holds item 1, nothing more starts.
    await tick();
    expect(w.started).toEqual([1, 2, 3]);
    const second = ahead.next();
    await tick();
    expect(w.started).toEqual([1, 2, 3, 4]);
    w.finish(2);
    expect((await second).value).toEqual({ item: 2, started: true, value: 'done 2' });
  });

  it('hands a failure over instead of throwing, and goes on', async () => {
    const w = controlled();
    const ahead = lookAhead([1, 2], w.work, 1, () => false);
    const first = ahead.next();
    await tick();
    w.fail(1);
    const step = (await first).value as Ahead<number, string>;
    expect(step.item).toBe(1);
    expect('error' in step && (step.error as Error).message).toBe('failed 1');
    w.finish(2);
    expect((await ahead.next()).value).toEqual({ item: 2, started: true, value: 'done 2' });
    expect((await ahead.next()).done).toBe(true);
  });

  it('starts nothing once stopped: the items left come back unstarted', async () => {
    const w = controlled();
    let stopped = false;
    const ahead = lookAhead([1, 2, 3, 4, 5], w.work, 1, () => stopped);
    const first = ahead.next();
    await tick();
    w.finish(1);
    await first;
    stopped = true;
    w.finish(2);
    const rest: Ahead<number, string>[] = [];
    for await (const step of ahead) rest.push(step);
    // Item 2 was under way when the run stopped: its result comes back; 3 to 5 never started.
    expect(rest.map((s) => [s.item, s.started])).toEqual([
      [2, true],
      [3, false],
      [4, false],
      [5, false],
    ]);
    expect(w.started).toEqual([1, 2]);
  });

  it('with depth 0, works on one item at a time (the lockstep a target known empty needs)', async () => {
    const w = controlled();
    const ahead = lookAhead([1, 2], w.work, 0, () => false);
    const first = ahead.next();
    await tick();
    expect(w.started).toEqual([1]);
    w.finish(1);
    await first;
    expect(w.started).toEqual([1]);
  });
});
