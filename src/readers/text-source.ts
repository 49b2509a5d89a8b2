import { openBytes, type ByteSource } from './byte-source.js';
import { canonicalEncoding, createTranscoder, type Transcoder } from './decode.js';
import { assertNotBinaryKind } from './file-kind.js';
import { assertNotBinary, detectEncoding } from './detect.js';
import { DETECT_BYTES } from './limits.js';

export interface TextSourceOptions {
  path: string;
  /** Declared encoding; detected when absent. */
  encoding?: string;
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  /** Told the size of each chunk of the file as it is read (before decoding). */
  onBytes?: (count: number) => void;
}

/** An input as UTF-8 bytes (BOM dropped), whatever its encoding. */
export interface TextSource {
  /** The input's encoding; for one read line by line, what its lines told so far. */
  readonly encoding: string;
  transcoder: Transcoder;
  chunks: AsyncGenerator<Buffer>;
  close(): Promise<void>;
}

async function readPrefix(bytes: ByteSource): Promise<{ prefix: Buffer; atEnd: boolean }> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < DETECT_BYTES) {
    const next = await bytes.chunks.next();
    if (next.done) return { prefix: Buffer.concat(parts), atEnd: true };
    parts.push(next.value);
    length += next.value.length;
  }
  return { prefix: Buffer.concat(parts), atEnd: false };
}

async function* transcode(bytes: ByteSource, first: Buffer, transcoder: Transcoder): AsyncGenerator<Buffer> {
  try {
    let out = transcoder.write(first);
    if (out.length > 0) yield out;
    for (;;) {
      const next = await bytes.chunks.next();
      if (next.done) break;
      out = transcoder.write(next.value);
      if (out.length > 0) yield out;
    }
    out = transcoder.end();
    if (out.length > 0) yield out;
  } finally {
    await bytes.close();
  }
}

/** Opens an input, detects (or takes) its encoding from the first bytes, and decodes the rest as it is pulled. */
export async function openText(options: TextSourceOptions): Promise<TextSource> {
  const declared =
    options.encoding === undefined ? undefined : canonicalEncoding(options.encoding, options.path);
  const bytes = await openBytes(options);
  try {
    const { prefix, atEnd } = await readPrefix(bytes);
    assertNotBinaryKind(prefix, options.path);
    const { encoding, bomLength, lineWise } = detectEncoding(prefix, atEnd, declared);
    assertNotBinary(prefix.subarray(bomLength), encoding, options.path);
    const transcoder = createTranscoder(encoding, lineWise);
    return {
      get encoding() {
        return transcoder.encoding;
      },
      transcoder,
      chunks: transcode(bytes, prefix.subarray(bomLength), transcoder),
      close: bytes.close,
    };
  } catch (error) {
    await bytes.close();
    throw error;
  }
}

/**
 * `info` with its `encoding` kept as the input's: an input read line by line learns its encoding
 * at its first line that is not ASCII, which may come long after the info was made.
 */
export const withLiveEncoding = <T extends { encoding: string }>(info: T, text: TextSource): T =>
  Object.defineProperty(info, 'encoding', { get: () => text.encoding, enumerable: true });
