import type { ProgressSample } from './html/model.js';

export type { ProgressSample } from './html/model.js';

/** At most this many samples reach report.html: enough for a smooth line, small at any run size. */
export const MAX_SAMPLES = 500;

/** `max` samples spread evenly over `samples`, the first and the last always kept. */
export const downsample = <T>(samples: readonly T[], max = MAX_SAMPLES): T[] => {
  if (samples.length <= max) return [...samples];
  if (max < 2) return samples.slice(-max);
  const out: T[] = [];
  const step = (samples.length - 1) / (max - 1);
  for (let i = 0; i < max; i += 1) out.push(samples[Math.round(i * step)]!);
  return out;
};

export interface SamplerOptions {
  /** Time between samples at the start; doubles each time the buffer is halved. */
  intervalMs?: number;
  max?: number;
  now?: () => number;
}

/**
 * Samples a run's running totals on a timer, so counting records costs the hot path nothing.
 * Memory stays bounded: when the buffer reaches twice `max` it keeps every other sample and
 * samples half as often from then on, so the points stay evenly spaced in time.
 */
export class ProgressSampler {
  private readonly samples: ProgressSample[] = [];
  private readonly current: () => Omit<ProgressSample, 't'>;
  private readonly intervalMs: number;
  private readonly max: number;
  private readonly now: () => number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private stride = 1;

  constructor(current: () => Omit<ProgressSample, 't'>, options: SamplerOptions = {}) {
    this.current = current;
    this.intervalMs = options.intervalMs ?? 250;
    this.max = options.max ?? MAX_SAMPLES;
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  start(): this {
    this.take();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  /** Stops sampling; the last sample is the final state. */
  stop(): ProgressSample[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.take();
    return downsample(this.samples, this.max);
  }

  /** One timer tick; public so a test can drive time by hand. */
  tick(): void {
    this.ticks += 1;
    if (this.ticks % this.stride === 0) this.take();
  }

  private take(): void {
    this.samples.push({ t: Math.max(0, this.now() - this.started), ...this.current() });
    if (this.samples.length >= this.max * 2) {
      const kept = this.samples.filter((_, i) => i % 2 === 0);
      this.samples.length = 0;
      this.samples.push(...kept);
      this.stride *= 2;
    }
  }
}
