import { setTimeout as sleepTimer } from 'node:timers/promises';

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
  /** Waits `ms` or rejects when `signal` aborts. Default node's timers/promises setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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
 * before the limited one. Until the first 429 nothing is paced.
 */
export interface Pacer {
  /**
   * Waits until an attempt may start and claims that start; resolves with it (pass it to
   * `settled`). Rejects with the signal's reason when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<PacedStart>;
  /** The answer (or its absence) of the attempt `start`. */
  settled(start: PacedStart, outcome: AttemptOutcome): void;
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

export function createPacer(options: PacingOptions = {}): Pacer {
  const windowMs = options.windowMs ?? 1000;
  const margin = options.margin ?? 0.95;
  const recoverAfterMs = options.recoverAfterMs ?? 10_000;
  const recoverStep = options.recoverStep ?? 0.05;
  const cut = options.cut ?? 0.85;
  const now = options.now ?? (() => performance.now());
  const sleep =
    options.sleep ??
    ((ms: number, signal?: AbortSignal) => sleepTimer(ms, undefined, signal ? { signal } : {}));

  let gateUntil = Number.NEGATIVE_INFINITY;
  let perSecond: number | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  let adjustedAt = Number.NEGATIVE_INFINITY;
  let quietSince = Number.NEGATIVE_INFINITY;
  // Starts of the last two windows, oldest first: what a 429 is measured against.
  const starts: Start[] = [];
  // One claim at a time, in arrival order, so spacing holds between real starts.
  let turn: Promise<unknown> = Promise.resolve();

  /**
   * No more starts in any window than the pace allows, and no two closer than 0.8 of the even
   * spacing: a stall of the event loop can be caught up within the window, yet no burst forms.
   */
  const earliestStart = (t: number): number => {
    if (perSecond === undefined) return gateUntil;
    const allowed = Math.max(1, Math.floor((perSecond * windowMs) / 1000));
    let at = Math.max(gateUntil, lastStart + (0.8 * windowMs) / allowed);
    const first = starts.findIndex((s) => s.at > t - windowMs);
    const recent = first === -1 ? 0 : starts.length - first;
    // One ms past the window, so a start never shares its boundary with the one it replaces.
    if (recent >= allowed) at = Math.max(at, starts[starts.length - allowed]!.at + windowMs + 1);
    return at;
  };

  const recover = (t: number): void => {
    if (perSecond === undefined || t - quietSince < recoverAfterMs) return;
    perSecond *= 1 + recoverStep;
    quietSince = t;
  };

  async function claim(signal: AbortSignal | undefined): Promise<PacedStart> {
    for (;;) {
      signal?.throwIfAborted();
      const t = now();
      recover(t);
      const at = earliestStart(t);
      if (t >= at) {
        lastStart = t;
        const start: Start = { at: t, limited: false };
        starts.push(start);
        while (starts.length > 0 && starts[0]!.at < t - 2 * windowMs) starts.shift();
        return start;
      }
      // Loop after waking: a 429 may have moved the gate meanwhile.
      await sleep(at - t, signal);
    }
  }

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

  /**
   * The limit a 429 reveals: the attempts the service admitted in the window before the limited
   * one, counting only those after the previous gate (the service's window was empty then, so
   * this does not count admissions of the window before). One cut per pace: a 429 of an attempt
   * that started before the last adjustment tells of the old pace.
   */
  function adopt(limited: PacedStart, previousGate: number): void {
    const startedAt = limited.at;
    if (startedAt < adjustedAt) return;
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
    perSecond = perSecond === undefined ? revealed : Math.min(revealed, perSecond * cut);
    adjustedAt = now();
  }

  return {
    acquire(signal) {
      const mine = turn.then(() => claim(signal));
      turn = mine.catch(() => undefined);
      return abortable(mine, signal);
    },
    settled(start, outcome) {
      if (outcome.status !== 429) return;
      const t = now();
      quietSince = t;
      (start as Start).limited = true;
      const previousGate = gateUntil;
      if (outcome.retryAfterMs !== undefined) gateUntil = Math.max(gateUntil, t + outcome.retryAfterMs);
      adopt(start, previousGate);
    },
    rate: () => perSecond,
    notBefore: () => gateUntil,
  };
}
