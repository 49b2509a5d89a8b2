import { describe, expect, it } from 'vitest';
import { downsample, ProgressSampler } from '../../../src/report/progress-samples.js';

describe('downsample', () => {
  it('keeps short series whole and spreads long ones evenly, first and last kept', () => {
    expect(downsample([1, 2, 3], 5)).toEqual([1, 2, 3]);
    const long = Array.from({ length: 10_001 }, (_, i) => i);
    const out = downsample(long, 500);
    expect(out).toHaveLength(500);
    expect(out[0]).toBe(0);
    expect(out.at(-1)).toBe(10_000);
    const gaps = out.slice(1).map((v, i) => v - out[i]!);
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
  });
});

describe('ProgressSampler', () => {
  it('stays bounded over a long run, its samples evenly spaced and ending with the final state', () => {
    let now = 1_000;
    let read = 0;
    const sampler = new ProgressSampler(() => ({ read, loaded: read, requests: 0, retries: 0 }), {
      max: 50,
      now: () => now,
    });
    sampler.start();
    for (let tick = 0; tick < 10_000; tick += 1) {
      now += 250;
      read += 10;
      sampler.tick();
    }
    now += 100;
    read += 1;
    const samples = sampler.stop();
    expect(samples.length).toBeLessThanOrEqual(50);
    expect(samples.length).toBeGreaterThanOrEqual(25);
    expect(samples[0]).toMatchObject({ t: 0, read: 0 });
    expect(samples.at(-1)).toMatchObject({ t: 10_000 * 250 + 100, read: 100_001 });
    const gaps = samples.slice(1, -1).map((s, i) => s.t - samples[i]!.t);
    expect(Math.max(...gaps) / Math.min(...gaps)).toBeLessThan(2.2);
  });

  it('samples on a real timer without being asked', async () => {
    let read = 0;
    const sampler = new ProgressSampler(() => ({ read: (read += 1), loaded: 0, requests: 0, retries: 0 }), {
      intervalMs: 10,
    }).start();
    await new Promise((r) => setTimeout(r, 120));
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThanOrEqual(4);
    expect(samples.map((s) => s.read)).toEqual([...samples.map((s) => s.read)].sort((a, b) => a - b));
  });
});
