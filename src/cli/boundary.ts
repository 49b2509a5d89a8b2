import { describeIoProblem, isImportError } from '../core/errors/index.js';
import { discardTemporaryFiles } from '../report/pending-temporaries.js';

/** The exit codes the command line ends with (README "Exit codes"). */
export const EXIT_CODES = { usage: 2, stopped: 2, internal: 70 } as const;

/** What an error that reached the command line means: its exit code and its one line. */
export const failureOf = (error: unknown): { code: number; line: string } => {
  if (isImportError(error)) return { code: EXIT_CODES.stopped, line: `${error.code}: ${error.message}` };
  // The machine's state (a full disk, a read-only mount, a folder in the way): not a bug.
  const io = describeIoProblem(error);
  if (io !== undefined) return { code: EXIT_CODES.stopped, line: io };
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return {
    code: EXIT_CODES.internal,
    line: `internal error: ${message} (a bug in contact-import; --log-level debug shows where)`,
  };
};

/** `--log-level debug` (or trace) anywhere on the command line: show the stack of an internal error. */
const wantsStack = (args: readonly string[]): boolean =>
  args.some(
    (arg, i) =>
      /^--log-level=(debug|trace)$/.test(arg) ||
      (arg === '--log-level' && /^(debug|trace)$/.test(args[i + 1] ?? '')),
  );

/**
 * Errors writing to stdout or stderr (the reader went away: `| head -1`, a dropped SSH session)
 * must not end the run: what could not be shown is in the report files.
 */
const GONE_READER = new Set(['EPIPE', 'EIO', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

/**
 * The one error boundary every command runs inside: an error no command handled ends the process
 * with one line on stderr (the stack only at --log-level debug) and exit 2 for a run-level problem
 * or a file-system failure, 70 for anything else (a bug). Temporary files are removed on every
 * exit, whatever ends the process.
 */
export const runInsideBoundary = async (
  args: readonly string[],
  main: () => Promise<unknown>,
): Promise<void> => {
  const fail = (error: unknown): never => {
    const { code, line } = failureOf(error);
    writeQuietly(`contact-import: ${line}\n`);
    if (code === EXIT_CODES.internal && wantsStack(args) && error instanceof Error && error.stack) {
      writeQuietly(`${error.stack}\n`);
    }
    process.exit(code);
  };
  process.on('exit', discardTemporaryFiles);
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (!GONE_READER.has(error.code ?? '')) fail(error);
    });
  }
  try {
    await main();
  } catch (error) {
    fail(error);
  }
};

const writeQuietly = (text: string): void => {
  try {
    process.stderr.write(text);
  } catch {
    // stderr is gone too: the exit code still says it.
  }
};
