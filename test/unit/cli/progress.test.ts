import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  ProgressDisplay,
  formatBytes,
  formatDuration,
  fractionDone,
  parseProgressInterval,
  progressText,
  remainingSeconds,
} from '../../../src/cli/progress.js';

describe('progress a person can read', () => {
  it('durations are h:mm:ss, whatever their length', () => {
    expect(formatDuration(0)).toBe('0:00:00');
    expect(formatDuration(7.4)).toBe('0:00:07');
    expect(formatDuration(59.6)).toBe('0:01:00');
    expect(formatDuration(3723)).toBe('1:02:03');
    // The "ETA 24207s".
    expect(formatDuration(24207)).toBe('6:43:27');
    expect(formatDuration(100_000)).toBe('27:46:40');
    expect(formatDuration(-3)).toBe('0:00:00');
  });

  it('bytes in powers of 1000', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_345)).toBe('12.3 KB');
    expect(formatBytes(29_100_000)).toBe('29.1 MB');
    expect(formatBytes(999_999)).toBe('1.0 MB');
    expect(formatBytes(1_200_000_000)).toBe('1.2 GB');
  });

  it('reading is measured in bytes of the inputs, loading in records', () => {
    expect(fractionDone({ phase: 'read', done: 10, bytes: 250, totalBytes: 1000 })).toBe(0.25);
    expect(fractionDone({ phase: 'read', done: 10, bytes: 250 })).toBeUndefined();
    expect(fractionDone({ phase: 'read', done: 10 })).toBeUndefined();
    expect(fractionDone({ phase: 'load', done: 30, total: 120 })).toBe(0.25);
    expect(fractionDone({ phase: 'load', done: 0, total: 0 })).toBeUndefined();
    expect(fractionDone({ phase: 'read', done: 1, bytes: 2000, totalBytes: 1000 })).toBe(1);
  });

  it('the ETA waits until it is stable: 2 % done or 5 s in', () => {
    expect(remainingSeconds(undefined, 60_000)).toBeUndefined();
    expect(remainingSeconds(0, 60_000)).toBeUndefined();
    // 1 % after 1 s: too early to say.
    expect(remainingSeconds(0.01, 1000)).toBeUndefined();
    // 1 % after 5 s: stable by time; 99 parts of 5 s left.
    expect(remainingSeconds(0.01, 5000)).toBeCloseTo(495);
    // 2 % after 1 s: stable by share.
    expect(remainingSeconds(0.02, 1000)).toBeCloseTo(49);
    expect(remainingSeconds(0.5, 10_000)).toBeCloseTo(10);
    expect(remainingSeconds(1, 10_000)).toBe(0);
  });

  it('one line says the phase, the share, the counts and the ETA', () => {
    const read = { phase: 'read' as const, done: 120_000, bytes: 12_300_000, totalBytes: 29_100_000 };
    expect(progressText(read, 1000)).toBe('read 42% (12.3 MB of 29.1 MB), 120,000 records, ETA 0:00:01');
    // Not stable yet: no ETA.
    expect(progressText({ ...read, bytes: 100_000 }, 1000)).toBe(
      'read 0% (100.0 KB of 29.1 MB), 120,000 records',
    );
    expect(progressText({ phase: 'read', done: 1, bytes: 80 }, 1000)).toBe('read 1 record (80 B)');
    expect(progressText({ phase: 'load', done: 7000, total: 20_000 }, 22_615)).toBe(
      'load 35% (7,000 of 20,000 records), ETA 0:00:42',
    );
    expect(progressText({ phase: 'load', done: 10, total: 24_207_000 }, 1000)).toBe(
      'load 0% (10 of 24,207,000 records)',
    );
    expect(progressText({ phase: 'load', done: 10, total: 24_207_000 }, 6000)).toBe(
      'load 0% (10 of 24,207,000 records), ETA 4034:29:54',
    );
  });

  it('--progress-interval takes seconds from 0 to 3600, and says so as typed', () => {
    expect(parseProgressInterval(undefined)).toBe(10);
    expect(parseProgressInterval('0')).toBe(0);
    expect(parseProgressInterval('0.5')).toBe(0.5);
    expect(() => parseProgressInterval('often')).toThrow(
      '--progress-interval must be a number of seconds from 0 to 3600, got "often"',
    );
    expect(() => parseProgressInterval('7200')).toThrow(/got "7200"/);
  });

  it('off a terminal, a plain line every interval; on one, a line redrawn in place', async () => {
    const log = new PassThrough();
    let text = '';
    log.on('data', (d: Buffer) => (text += d.toString()));
    const plain = new ProgressDisplay(log, { tty: false, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toBe('');
    plain.update({ phase: 'load', done: 5, total: 10 });
    await new Promise((r) => setTimeout(r, 70));
    plain.stop();
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatch(/^progress: load 50% \(5 of 10 records\)/);
    expect(text).not.toMatch(/\r/);
    expect(text).not.toContain('\u001b');

    const terminal = new PassThrough();
    let drawn = '';
    terminal.on('data', (d: Buffer) => (drawn += d.toString()));
    let now = 0;
    const tty = new ProgressDisplay(terminal, { tty: true, intervalMs: 10_000, now: () => now });
    now = 1000;
    tty.update({ phase: 'read', done: 2048, bytes: 500, totalBytes: 1000 });
    expect(drawn).toBe(
      '\r[##########..........] read 50% (500 B of 1.0 KB), 2,048 records, ETA 0:00:01\u001b[K',
    );
    tty.stop();
    expect(drawn.endsWith('\r\u001b[K')).toBe(true);
  });
});
