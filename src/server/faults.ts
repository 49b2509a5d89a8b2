import { randomInt } from 'node:crypto';
import { seededRandom } from '../core/random.js';

export { seededRandom };

export interface FaultOptions {
  /** 0..1: fraction of requests answered 503 before any work. */
  failRate?: number;
  /** 0..1: fraction of requests fully applied, then the connection destroyed without an answer. */
  resetRate?: number;
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Requests per second per key; beyond it 429 with Retry-After. */
  rateLimit?: number;
  /** 0..1: fraction of requests fully applied, then the answer cut off halfway and the connection reset. */
  cutRate?: number;
  /** 0..1: fraction of requests fully applied, then answered only after `slowMs` (past a client's timeout). */
  slowRate?: number;
  /** The delay of a slow answer, in milliseconds (default 2000). */
  slowMs?: number;
  /** Makes the fail and reset decisions repeatable. */
  seed?: number;
}

/** A user's rate limit as one answer announces it. */
export interface RateQuota {
  limit: number;
  remaining: number;
  /** When the current one-second window ends (epoch ms). */
  resetAtMs: number;
  now: number;
}

/** What happens to an applied request's answer. At most one fault per answer, so each costs one retry. */
export type AnswerFault = 'reset' | 'cut' | 'slow' | undefined;

/** How many of each fault were injected, so a test can hold a run's retry count against them. */
export interface FaultCounts {
  failed: number;
  rateLimited: number;
  reset: number;
  cut: number;
  slow: number;
}

/**
 * The injected faults. The fail and reset decisions come from separate seeded streams, so with a
 * seed the n-th request meets the same fate on every run, and changing one rate leaves the other
 * sequence as it was.
 */
export class Faults {
  readonly latencyMs: number;
  private readonly failRate: number;
  private readonly resetRate: number;
  private readonly rateLimit: number | undefined;
  private readonly failRandom: () => number;
  private readonly resetRandom: () => number;
  private readonly windows = new Map<number, { second: number; count: number }>();
  private readonly cutRate: number;
  private readonly slowRate: number;
  readonly slowMs: number;
  private readonly answerRandom: () => number;
  readonly counts: FaultCounts = { failed: 0, rateLimited: 0, reset: 0, cut: 0, slow: 0 };

  constructor(options: FaultOptions = {}) {
    this.failRate = options.failRate ?? 0;
    this.resetRate = options.resetRate ?? 0;
    this.latencyMs = options.latencyMs ?? 0;
    this.rateLimit = options.rateLimit;
    const seed = options.seed ?? randomInt(0, 2 ** 32);
    this.failRandom = seededRandom(seed);
    this.resetRandom = seededRandom(seed ^ 0x9e3779b9);
    this.cutRate = options.cutRate ?? 0;
    this.slowRate = options.slowRate ?? 0;
    this.slowMs = options.slowMs ?? 2000;
    this.answerRandom = seededRandom(seed ^ 0x85ebca6b);
  }

  /** Counts a request of the user; returns Retry-After seconds when over the limit, else undefined. */
  rateLimited(userId: number, now = Date.now()): number | undefined {
    if (this.rateLimit === undefined) return undefined;
    const second = Math.floor(now / 1000);
    const window = this.windows.get(userId);
    if (!window || window.second !== second) {
      this.windows.set(userId, { second, count: 1 });
      return undefined;
    }
    window.count += 1;
    if (window.count <= this.rateLimit) return undefined;
    this.counts.rateLimited += 1;
    return Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000));
  }

  /**
   * The user's quota as the current window stands (after `rateLimited` counted the request), for
   * the answer's headers; undefined without a limit. Windows are whole seconds of the clock.
   */
  quota(userId: number, now = Date.now()): RateQuota | undefined {
    if (this.rateLimit === undefined) return undefined;
    const second = Math.floor(now / 1000);
    const window = this.windows.get(userId);
    const used = window && window.second === second ? window.count : 0;
    return {
      limit: this.rateLimit,
      remaining: Math.max(0, this.rateLimit - used),
      resetAtMs: (second + 1) * 1000,
      now,
    };
  }

  shouldFail(): boolean {
    const fail = this.failRate > 0 && this.failRandom() < this.failRate;
    if (fail) this.counts.failed += 1;
    return fail;
  }

  shouldReset(): boolean {
    return this.resetRate > 0 && this.resetRandom() < this.resetRate;
  }

  /** The fault for the answer of a request that passed auth, rate limit and fail-rate. */
  answerFault(): AnswerFault {
    if (this.shouldReset()) return 'reset';
    if (this.cutRate === 0 && this.slowRate === 0) return undefined;
    const draw = this.answerRandom();
    if (draw < this.cutRate) return 'cut';
    if (draw < this.cutRate + this.slowRate) return 'slow';
    return undefined;
  }

  /** Counted when the fault is carried out (only answers below 500 are reset, cut or slowed). */
  applied(fault: Exclude<AnswerFault, undefined>): void {
    this.counts[fault] += 1;
  }
}
