import { constants, open as openCallback, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { Socket } from 'node:net';
import { promisify } from 'node:util';
import { ImportError } from '../core/errors/index.js';
import { CHUNK_BYTES } from './limits.js';

/** fs.open with flags as a number, as fs/promises' open returns a FileHandle, not the descriptor a Socket takes. */
const fsOpen = promisify(openCallback) as (path: string, flags: number) => Promise<number>;

export interface ByteSourceOptions {
  /** The input path as the user gave it; `-` reads `stdin`. */
  path: string;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  /** Told the size of each chunk as it is read (progress: bytes read of the file's size). */
  onBytes?: (count: number) => void;
}

/** Raw bytes of one input, pulled chunk by chunk; `close` releases the file at any point. */
export interface ByteSource {
  chunks: AsyncIterator<Buffer>;
  close(): Promise<void>;
}

const describeFsError = (error: unknown): { code: string; message: string } => {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === 'string' ? code : 'EUNKNOWN', message };
};

const toImportError = (error: unknown, path: string): ImportError => {
  if (error instanceof ImportError) return error;
  const { code, message } = describeFsError(error);
  if (code === 'ENOENT') {
    return new ImportError(
      'input_not_found',
      `Input file ${path} does not exist.`,
      { file: path },
      { cause: error },
    );
  }
  return new ImportError(
    'input_unreadable',
    `Input file ${path} cannot be read (${code}: ${message}); expected a readable file.`,
    { file: path },
    { cause: error },
  );
};

const interrupted = (path: string): ImportError =>
  new ImportError('interrupted', `Reading ${path} was stopped before its end.`, { file: path });

async function* fileChunks(
  handle: FileHandle,
  path: string,
  signal?: AbortSignal,
  onBytes?: (count: number) => void,
): AsyncGenerator<Buffer> {
  const opened = await handle.stat().catch((error: unknown) => {
    throw toImportError(error, path);
  });
  let total = 0;
  // A fresh buffer per read: consumers (csv-parse, the decoders) may keep slices of it.
  for (;;) {
    if (signal?.aborted) throw interrupted(path);
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null));
    } catch (error) {
      throw toImportError(error, path);
    }
    if (bytesRead === 0) {
      await assertUnchanged(handle, path, opened, total);
      return;
    }
    total += bytesRead;
    onBytes?.(bytesRead);
    yield bytesRead === CHUNK_BYTES ? buffer : buffer.subarray(0, bytesRead);
  }
}

/**
 * What tells that a file changed while it was read, from what it was when opened: the bytes read
 * to its end against its size then, its size and modification time now, and the file its path
 * names now (another one after a replace). An input that changed ends the run: the rows read
 * from it would be some of one version and some of another, its last one maybe cut.
 */
export const changeOf = (
  opened: Pick<Stats, 'size' | 'mtimeMs' | 'ino' | 'dev'>,
  read: number,
  now: Pick<Stats, 'size' | 'mtimeMs'>,
  named: Pick<Stats, 'ino' | 'dev'> | undefined,
): string | undefined => {
  // A file the system sizes 0 but reads bytes from (/proc and the like) never had a size to keep.
  if (opened.size === 0 && now.size === 0) return undefined;
  if (now.size < opened.size) return `it shrank from ${opened.size} to ${now.size} bytes`;
  if (now.size > opened.size) return `it grew from ${opened.size} to ${now.size} bytes`;
  if (read < opened.size) return `it ended after ${read} of the ${opened.size} bytes it had when opened`;
  if (read > opened.size) return `${read} bytes were read from it, it had ${opened.size} when opened`;
  if (now.mtimeMs !== opened.mtimeMs) return 'it was written to';
  if (named === undefined) return 'it was removed';
  if (named.ino !== opened.ino || named.dev !== opened.dev) return 'another file replaced it';
  return undefined;
};

const assertUnchanged = async (
  handle: FileHandle,
  path: string,
  opened: Stats,
  read: number,
): Promise<void> => {
  const now = await handle.stat().catch(() => undefined);
  const named = await stat(path).catch(() => undefined);
  const change = now ? changeOf(opened, read, now, named) : 'it can no longer be looked at';
  if (change === undefined) return;
  throw new ImportError(
    'input_changed',
    `Input file ${path} changed while it was read (${change}); the run stopped there. Run again once the file is complete.`,
    { file: path, change },
  );
};

/**
 * A stream's chunks, given up as soon as `signal` aborts, even while no chunk comes (idle stdin, a
 * FIFO nobody writes to): the pending read is abandoned and the stream destroyed.
 */
async function* streamChunks(
  stream: NodeJS.ReadableStream,
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  const iterator = (stream as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const stop = stopped(signal, path);
  let waiting = false;
  try {
    for (;;) {
      const pending = iterator.next();
      // The losing read settles once the stream is destroyed; nobody waits for it any more.
      pending.catch(() => undefined);
      waiting = true;
      const next = await (stop ? Promise.race([pending, stop.promise]) : pending);
      waiting = false;
      if (next.done) return;
      const chunk = next.value;
      yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    }
  } catch (error) {
    throw toImportError(error, path);
  } finally {
    stop?.dispose();
    // An async iterator's return() queues behind a read still pending, which may never end:
    // destroying the stream is what ends that read.
    if (waiting) (stream as { destroy?: () => void }).destroy?.();
    else await iterator.return?.();
  }
}

/** A promise that rejects with `interrupted` when `signal` aborts; `dispose` removes its listener. */
const stopped = (
  signal: AbortSignal | undefined,
  path: string,
): { promise: Promise<never>; dispose(): void } | undefined => {
  if (!signal) return undefined;
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(interrupted(path));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
};

const fromStream = (stream: NodeJS.ReadableStream, path: string, signal?: AbortSignal): ByteSource => {
  const chunks = streamChunks(stream, path, signal);
  return {
    chunks,
    close: async () => {
      await chunks.return(undefined);
    },
  };
};

/**
 * A FIFO (named pipe) opened without blocking: a plain open() waits for a writer inside a libuv
 * thread that nothing can cancel, and even process.exit() waits for it. Opened O_NONBLOCK it is
 * read as a pipe stream, through the event loop, and dropped at once when the run is stopped.
 */
const openFifo = async (path: string, signal?: AbortSignal): Promise<ByteSource> => {
  let fd: number;
  try {
    fd = await fsOpen(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw toImportError(error, path);
  }
  return fromStream(new Socket({ fd, readable: true, writable: false }), path, signal);
};

/** Opens a file (or stdin for `-`) for reading; a missing or unreadable file throws at once. */
export async function openBytes(options: ByteSourceOptions): Promise<ByteSource> {
  const { path, signal } = options;
  if (path === '-') return fromStream(options.stdin ?? process.stdin, path, signal);
  let kind: Stats;
  try {
    kind = await stat(path);
  } catch (error) {
    throw toImportError(error, path);
  }
  if (kind.isDirectory()) {
    throw new ImportError('input_unreadable', `Input ${path} is a directory; expected a file.`, {
      file: path,
    });
  }
  if (kind.isFIFO()) return openFifo(path, signal);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw toImportError(error, path);
  }
  const chunks = fileChunks(handle, path, signal, options.onBytes);
  let closed = false;
  return {
    chunks,
    close: async () => {
      if (closed) return;
      closed = true;
      await chunks.return(undefined);
      await handle.close();
    },
  };
}
