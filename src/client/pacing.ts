import { wait } from './wait.js';

export interface PacingOptions {
  /** The span the observed rate is measured over when a 429 arrives. Default 1000 ms. */
  windowMs?: number;
  /** Fraction of the revealed limit to pace at, so jitter does not cross it. Default 0.95. */
  margin?: number;
  /** A pace that met a 429 drops to at most this fraction of itself. Default 0.85. */
  cut?: number;
  /** After this long without a 429 the pace grows by `recoverStep`, in case it was set too low. Default 10 000. */
  recoverAfterMs?: number;
  /** Default 0.05 (5% per quiet period). */
  recoverStep?: number;
  /** Clock in ms; injectable so tests control time. Default performance.now. */
  now?: () => number;
  /** Waits `ms` or rejects when `signal` aborts. Default wait.ts's (no timer past 2^31-1 ms). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A start later than this from now is refused (LongWait) instead of waited for. Default none. */
  maxWaitMs?: number;
  /** Told before each wait, with its length. */
  onWait?: (ms: number) => void;
}

/** The pace or the gate would hold an attempt longer than `maxWaitMs`: `ms` is how long. */
export class LongWait extends Error {
  constructor(readonly ms: number) {
    super(`the target's pace would hold the request ${ms} ms`);
    this.name = 'LongWait';
  }
}

/** A limit the target announced in its answers' headers: `count` requests per `windowMs`. */
export interface AnnouncedLimit {
  count: number;
  windowMs: number;
}

export interface AttemptOutcome {
  /** HTTP status of the answer; undefined when none came (network error, timeout). */
  status?: number;
  /** The answer's `Retry-After` in ms (429 only). */
  retryAfterMs?: number;
}

/**
 * Shared by every request of one client: a gate (after a 429 with `Retry-After`, no attempt starts
 * before that moment) and a pace (after a 429, at most `margin` times the revealed limit start in
 * any window). The revealed limit is the number of attempts the service admitted in the window
 * before the limited one. A limit the target announces (`announce`) paces from then on, before any
 * 429. Until one or the other nothing is paced.
 */
export interface Pacer {
  /**
   * Waits until an attempt may start and claims that start; resolves with it (pass it to
   * `settled`). Rejects with the signal's reason when `signal` aborts first. `stopWaiting` ends a
   * wait the same way but lets a start that needs none go. Rejects with LongWait when the start
   * is further away than `maxWaitMs`.
   */
  acquire(signal?: AbortSignal, stopWaiting?: AbortSignal): Promise<PacedStart>;
  /** The answer (or its absence) of the attempt `start`. */
  settled(start: PacedStart, outcome: AttemptOutcome): void;
  /** A limit the target announced; the strictest announced so far paces every later start. */
  announce(limit: AnnouncedLimit): void;
  /** Attempts per second the pace allows; undefined while unpaced. */
  rate(): number | undefined;
  /** No attempt starts before this time (same clock as `now`). */
  notBefore(): number;
}

/** One claimed start; `at` on the pacer's clock. */
export interface PacedStart {
  readonly at: number;
}

interface Start extends PacedStart {
  limited: boolean;
}

/** The options with their defaults. */
const settingsOf = (options: PacingOptions) => ({
  windowMs: options.windowMs ?? 1000,
  margin: options.margin ?? 0.95,
  recoverAfterMs: options.recoverAfterMs ?? 10_000,
  recoverStep: options.recoverStep ?? 0.05,
  cut: options.cut ?? 0.85,
  now: options.now ?? (() => performance.now()),
  sleep: options.sleep ?? wait,
  maxWaitMs: options.maxWaitMs ?? Infinity,
  onWait: options.onWait,
});

export function createPacer(options: PacingOptions = {}): Pacer {
  return new SharedPacer(settingsOf(options));
}

/**
 * An announced window is paced as this much longer: an answer's way back and the next request's
 * way out vary by a few ms, and a start that lands in the service's next window early is a 429.
 */
const announcedSlack = (windowMs: number): number => Math.max(10, 0.03 * windowMs);

class SharedPacer implements Pacer {
  private gateUntil = Number.NEGATIVE_INFINITY;
  private perSecond: number | undefined;
  private announced: AnnouncedLimit | undefined;
  private lastStart = Number.NEGATIVE_INFINITY;
  private adjustedAt = Number.NEGATIVE_INFINITY;
  private quietSince = Number.NEGATIVE_INFINITY;
  // Starts of the last two windows, oldest first: what a 429 is measured against.
  private readonly starts: Start[] = [];
  // One claim at a time, in arrival order, so spacing holds between real starts.
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: ReturnType<typeof settingsOf>) {}

  acquire(signal?: AbortSignal, stopWaiting?: AbortSignal): Promise<PacedStart> {
    const mine = this.turn.then(() => this.claim(signal, stopWaiting));
    this.turn = mine.catch(() => undefined);
    return abortable(mine, signal);
  }

  settled(start: PacedStart, outcome: AttemptOutcome): void {
    if (outcome.status !== 429) return;
    const t = this.o.now();
    this.quietSince = t;
    (start as Start).limited = true;
    const previousGate = this.gateUntil;
    if (outcome.retryAfterMs !== undefined)
      this.gateUntil = Math.max(this.gateUntil, t + outcome.retryAfterMs);
    this.adopt(start, previousGate);
  }

  announce(limit: AnnouncedLimit): void {
    if (!(limit.count >= 1 && limit.windowMs > 0)) return;
    const current = this.announced;
    if (current && current.count / current.windowMs <= limit.count / limit.windowMs) return;
    this.announced = { count: Math.floor(limit.count), windowMs: limit.windowMs };
  }

  rate(): number | undefined {
    return this.perSecond;
  }

  notBefore(): number {
    return this.gateUntil;
  }

  /** The paces in force: the one a 429 revealed (per `windowMs`) and the one the target announced. */
  private limits(): { allowed: number; windowMs: number }[] {
    const { windowMs } = this.o;
    return [
      ...(this.perSecond === undefined
        ? []
        : [{ allowed: Math.max(1, Math.floor((this.perSecond * windowMs) / 1000)), windowMs }]),
      ...(this.announced === undefined
        ? []
        : [
            {
              allowed: this.announced.count,
              windowMs: this.announced.windowMs + announcedSlack(this.announced.windowMs),
            },
          ]),
    ];
  }

  /**
   * No more starts in any window than each pace allows, and no two closer than 0.8 of its even
   * spacing: a stall of the event loop can be caught up within the window, yet no burst forms.
   */
  private earliestStart(t: number): number {
    const { starts } = this;
    let at = this.gateUntil;
    for (const { allowed, windowMs } of this.limits()) {
      at = Math.max(at, this.lastStart + (0.8 * windowMs) / allowed);
      const first = starts.findIndex((s) => s.at > t - windowMs);
      const recent = first === -1 ? 0 : starts.length - first;
      // One ms past the window, so a start never shares its boundary with the one it replaces.
      if (recent >= allowed) at = Math.max(at, starts[starts.length - allowed]!.at + windowMs + 1);
    }
    return at;
  }

  /** Starts older than this are no use to any pace: kept for two of the longest windows. */
  private keptMs(): number {
    const announced = this.announced ? this.announced.windowMs + announcedSlack(this.announced.windowMs) : 0;
    return 2 * Math.max(this.o.windowMs, announced);
  }

  private recover(t: number): void {
    if (this.perSecond === undefined || t - this.quietSince < this.o.recoverAfterMs) return;
    this.perSecond *= 1 + this.o.recoverStep;
    this.quietSince = t;
  }

  private async claim(
    signal: AbortSignal | undefined,
    stopWaiting: AbortSignal | undefined,
  ): Promise<PacedStart> {
    const { starts } = this;
    const sleepSignal =
      signal && stopWaiting ? AbortSignal.any([signal, stopWaiting]) : (signal ?? stopWaiting);
    for (;;) {
      signal?.throwIfAborted();
      const t = this.o.now();
      this.recover(t);
      const at = this.earliestStart(t);
      if (t >= at) {
        this.lastStart = t;
        const start: Start = { at: t, limited: false };
        starts.push(start);
        const kept = this.keptMs();
        while (starts.length > 0 && starts[0]!.at < t - kept) starts.shift();
        return start;
      }
      const ms = at - t;
      if (ms > this.o.maxWaitMs) throw new LongWait(ms);
      stopWaiting?.throwIfAborted();
      this.o.onWait?.(ms);
      // Loop after waking: a 429 may have moved the gate meanwhile.
      await this.o.sleep(ms, sleepSignal);
    }
  }

  /**
   * The limit a 429 reveals: the attempts the service admitted in the window before the limited
   * one, counting only those after the previous gate (the service's window was empty then, so
   * this does not count admissions of the window before). One cut per pace: a 429 of an attempt
   * that started before the last adjustment tells of the old pace.
   */
  private adopt(limited: PacedStart, previousGate: number): void {
    // An announced limit already paces: its 429 is jitter at a window's edge or another user of
    // the key, and the gate (Retry-After) answers both; a pace cut from a window's count would
    // halve the run for the rest of it.
    if (this.announced !== undefined) return;
    const { starts } = this;
    const { windowMs, margin, cut } = this.o;
    const startedAt = limited.at;
    if (startedAt < this.adjustedAt) return;
    const from = Math.max(startedAt - windowMs, previousGate);
    let admitted = 0;
    // Claimed before the limited attempt (by order: a clock can give equal times).
    const limitedIndex = starts.indexOf(limited as Start);
    const before = limitedIndex === -1 ? starts.length : limitedIndex;
    for (let i = 0; i < before; i += 1) {
      const start = starts[i]!;
      if (start.at >= from && start.at > startedAt - windowMs && !start.limited) admitted += 1;
    }
    if (admitted === 0) return;
    const revealed = margin * ((admitted * 1000) / windowMs);
    // A pace that still met a 429 was too fast even if the count says otherwise.
    this.perSecond = this.perSecond === undefined ? revealed : Math.min(revealed, this.perSecond * cut);
    this.adjustedAt = this.o.now();
  }
}

/** `work`, or the signal's reason as soon as it aborts (the work itself goes on). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
