import { Writable } from 'node:stream';
import { pino, type Level, type Logger } from 'pino';
import { undoRun, type UndoOptions, type UndoResult } from '../../src/undo/index.js';
import type { TestService } from '../e2e/harness.js';

/**
 * Undos in the test's own process, and what a run logs kept for a test to read, for the undos and
 * runs whose results (report, ledger, what the service holds, the messages) are what a test checks:
 * a spawned CLI starts node and loads its bundle before it reads a row. Runs: harness.ts
 * loadInProcess. Where the command line itself is checked (exit code, what it prints, a signal),
 * tests spawn it (harness.ts runCli).
 */

interface Dirs {
  stateDir: string;
  outDir: string;
}

/** What `undo <run> --target <svc> --state ... --out ... <flags>` does, `settings` as its flags. */
export const undoOn = (
  svc: TestService,
  run: string,
  dirs: Dirs,
  settings: Omit<UndoOptions, 'run' | 'target' | 'stateDir' | 'outDir'> = {},
): Promise<UndoResult> =>
  undoRun({ run, target: { url: svc.service.url, apiKey: svc.key }, ...dirs, ...settings });

/**
 * A logger that keeps the messages a run logs at `level` and above (info unless said; the command
 * line's default is warn): what the command line writes to stderr for it, for a test to read.
 */
export const keptMessages = (level: Level = 'info'): { logger: Logger; messages: string[] } => {
  const messages: string[] = [];
  const sink = new Writable({
    write(line: Buffer, _encoding, done) {
      messages.push(String((JSON.parse(line.toString()) as { msg?: unknown }).msg));
      done();
    },
  });
  return { logger: pino({ level }, sink), messages };
};
