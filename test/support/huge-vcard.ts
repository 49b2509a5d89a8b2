import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * vCard 2.1 cards, each with a quoted-printable photo of `photoLines` soft-broken lines (80,000
 * lines: 2.6 MB a card), the kind of file a phone's export holds. Returns its path.
 */
export const writeHugeVcard = (dir: string, cards: number, photoLines = 80_000): string => {
  const photo = Array.from({ length: photoLines }, () => '=FF=D8=FF=E0=00=10=4A=46=49=46=').join('\r\n');
  const path = join(dir, 'photos.vcf');
  const text = Array.from(
    { length: cards },
    (_, i) =>
      `BEGIN:VCARD\r\nVERSION:2.1\r\nN:Number${i};Jo\r\nFN:Jo Number${i}\r\nEMAIL;INTERNET:jo${i}@example.com\r\n` +
      `PHOTO;JPEG;ENCODING=QUOTED-PRINTABLE:${photo}\r\n\r\nEND:VCARD\r\n`,
  );
  writeFileSync(path, text.join(''));
  return path;
};

export interface StoppedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the signal to the process's end. */
  msAfterSignal: number;
}

/**
 * Starts the built CLI (`cli`, then `args`), sends `signal` `afterMs` after its `run started` log
 * line (the reader is then in the middle of the input), and waits for it to end. A child still
 * there after `guardMs` is killed, so a hang fails the test rather than outliving it.
 */
export const stopWhileReading = (
  cli: string,
  args: string[],
  options: { signal: NodeJS.Signals; afterMs: number; cwd: string; env?: Record<string, string> },
  guardMs = 90_000,
): Promise<StoppedRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args, '--log-level', 'info'], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalledAt: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), guardMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (timer === undefined && stderr.includes('run started')) {
        timer = setTimeout(() => {
          signalledAt = performance.now();
          child.kill(options.signal);
        }, options.afterMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      clearTimeout(timer);
      const msAfterSignal = signalledAt === undefined ? Number.NaN : performance.now() - signalledAt;
      resolve({ code, stdout, stderr, msAfterSignal });
    });
  });
