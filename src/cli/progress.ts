import { ImportError } from '../core/errors/index.js';
import { formatCount } from '../core/format-count.js';

/** What the run last said about its progress (RunProgress of run.ts, seen from the command line). */
export interface ProgressState {
  phase: 'read' | 'load';
  /** Records read, or records settled by the load. */
  done: number;
  /** Load: the records to settle. */
  total?: number | undefined;
  /** Read: bytes of the inputs read so far, and their size when every input is a plain file. */
  bytes?: number | undefined;
  totalBytes?: number | undefined;
}

const n = formatCount;

/** Seconds as h:mm:ss (`0:00:07`, `1:02:03`, `27:46:40`). */
export const formatDuration = (seconds: number): string => {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
};

/** Bytes as a person reads them: `512 B`, `12.3 KB`, `4.1 MB`, `1.2 GB` (powers of 1000). */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
};

/**
 * The share of the phase done, from 0 to 1: bytes read of the inputs' size while reading, records
 * settled of those to load while loading; undefined when the whole is not known (stdin, a FIFO).
 */
export const fractionDone = (state: ProgressState): number | undefined => {
  const [done, whole] = state.phase === 'read' ? [state.bytes, state.totalBytes] : [state.done, state.total];
  if (done === undefined || whole === undefined || whole <= 0) return undefined;
  return Math.min(Math.max(done / whole, 0), 1);
};

/** An ETA is shown once it is stable: after 2 % of the phase or 5 seconds into it. */
export const ETA_STABLE_FRACTION = 0.02;
export const ETA_STABLE_MS = 5000;

/**
 * Seconds left in the phase at its average pace so far, or undefined while the estimate is not
 * stable yet (under 2 % done and under 5 s in) or cannot be made (nothing done, whole unknown).
 */
export const remainingSeconds = (fraction: number | undefined, elapsedMs: number): number | undefined => {
  if (fraction === undefined || fraction <= 0) return undefined;
  if (fraction < ETA_STABLE_FRACTION && elapsedMs < ETA_STABLE_MS) return undefined;
  if (fraction >= 1) return 0;
  return ((elapsedMs / 1000) * (1 - fraction)) / fraction;
};

/**
 * One line of progress for a person, `elapsedMs` into the phase:
 * `read 42% (12.3 MB of 29.1 MB), 120,000 records, ETA 0:01:10` or
 * `load 35% (7,000 of 20,000 records), ETA 0:00:42`; without a known whole, the counts only.
 */
export const progressText = (state: ProgressState, elapsedMs: number): string => {
  const fraction = fractionDone(state);
  const eta = remainingSeconds(fraction, elapsedMs);
  const percent = fraction === undefined ? '' : ` ${Math.floor(fraction * 100)}%`;
  const left = eta === undefined ? '' : `, ETA ${formatDuration(eta)}`;
  if (state.phase === 'read') {
    const bytes =
      state.bytes === undefined
        ? ''
        : state.totalBytes === undefined
          ? ` (${formatBytes(state.bytes)})`
          : ` (${formatBytes(state.bytes)} of ${formatBytes(state.totalBytes)})`;
    const records = `${n(state.done)} record${state.done === 1 ? '' : 's'}`;
    return fraction === undefined ? `read ${records}${bytes}` : `read${percent}${bytes}, ${records}${left}`;
  }
  if (state.total === undefined) return `load ${n(state.done)} records`;
  return `load${percent} (${n(state.done)} of ${n(state.total)} records)${left}`;
};

/** A bar of `width` cells for a share from 0 to 1. */
export const progressBar = (fraction: number, width = 20): string => {
  const filled = Math.round(Math.min(Math.max(fraction, 0), 1) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
};

/** Seconds between plain progress lines when stderr is not a terminal (CI logs). */
export const DEFAULT_PROGRESS_INTERVAL_SECONDS = 10;

/** `--progress-interval SECONDS` as typed: a number from 0 (no plain lines) to 3600. */
export const parseProgressInterval = (typed: string | undefined): number => {
  if (typed === undefined) return DEFAULT_PROGRESS_INTERVAL_SECONDS;
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(typed) ? Number(typed) : NaN;
  if (!(seconds >= 0 && seconds <= 3600)) {
    throw new ImportError(
      'config_invalid',
      `--progress-interval must be a number of seconds from 0 to 3600, got "${typed}"`,
      { field: '--progress-interval' },
    );
  }
  return seconds;
};

export interface ProgressDisplayOptions {
  /** A terminal: one line redrawn in place (at most 10 times a second), with a bar. */
  tty: boolean;
  /** Not a terminal: a plain line every this many ms (0: none). */
  intervalMs: number;
  now?: () => number;
}

/**
 * Progress on stderr: on a terminal one line redrawn in place; elsewhere (CI logs) a plain line
 * every interval, so a long run shows it is alive without flooding the log.
 */
export class ProgressDisplay {
  private state: ProgressState | undefined;
  private phaseStarted = 0;
  private lastDraw = 0;
  private shown = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly options: ProgressDisplayOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.phaseStarted = this.now();
    if (!options.tty && options.intervalMs > 0) {
      this.timer = setInterval(() => this.printLine(), options.intervalMs);
      this.timer.unref();
    }
  }

  update(state: ProgressState): void {
    const now = this.now();
    // Reading starts with the run; loading when its first progress comes.
    if (this.state !== undefined && this.state.phase !== state.phase) this.phaseStarted = now;
    this.state = state;
    if (!this.options.tty || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const fraction = fractionDone(state);
    const bar = fraction === undefined ? '' : `${progressBar(fraction)} `;
    this.stream.write(`\r${bar}${progressText(state, now - this.phaseStarted)}\u001b[K`);
    this.shown = true;
  }

  /** The plain line of a log: what the run last said, as of now. */
  private printLine(): void {
    if (!this.state) return;
    this.stream.write(`progress: ${progressText(this.state, this.now() - this.phaseStarted)}\n`);
  }

  /** Stops the timer and wipes the terminal line, before the summary is printed. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.shown) this.stream.write('\r\u001b[K');
    this.shown = false;
  }
}
