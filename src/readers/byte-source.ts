import { open, type FileHandle } from 'node:fs/promises';
import { ImportError } from '../core/errors/index.js';
import { CHUNK_BYTES } from './limits.js';

export interface ByteSourceOptions {
  /** The input path as the user gave it; `-` reads `stdin`. */
  path: string;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
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

async function* fileChunks(handle: FileHandle, path: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
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
    if (bytesRead === 0) return;
    yield bytesRead === CHUNK_BYTES ? buffer : buffer.subarray(0, bytesRead);
  }
}

async function* streamChunks(
  stream: NodeJS.ReadableStream,
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      if (signal?.aborted) throw interrupted(path);
      yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    }
  } catch (error) {
    throw toImportError(error, path);
  }
}

/** Opens a file (or stdin for `-`) for reading; a missing or unreadable file throws at once. */
export async function openBytes(options: ByteSourceOptions): Promise<ByteSource> {
  const { path, signal } = options;
  if (path === '-') {
    const stream = options.stdin ?? process.stdin;
    const chunks = streamChunks(stream, path, signal);
    return {
      chunks,
      close: async () => {
        await chunks.return(undefined);
      },
    };
  }
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw toImportError(error, path);
  }
  try {
    if ((await handle.stat()).isDirectory()) {
      throw new ImportError('input_unreadable', `Input ${path} is a directory; expected a file.`, {
        file: path,
      });
    }
  } catch (error) {
    await handle.close();
    throw toImportError(error, path);
  }
  const chunks = fileChunks(handle, path, signal);
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
