import type { Readable } from 'node:stream';
import { ServiceError } from './envelope.js';

export interface BodyLimits {
  /** Bytes; beyond them 413, whether the length was declared or the body is chunked. */
  maxBytes: number;
  /** Milliseconds from the first read to the last byte; beyond them 408. */
  timeoutMs: number;
}

export const bodyTooLarge = (maxBytes: number): ServiceError =>
  new ServiceError(
    413,
    'payload_too_large',
    `The request body is larger than ${maxBytes} bytes (${(maxBytes / 1024 / 1024).toFixed(0)} MB).`,
    [{ path: '', message: `Expected at most ${maxBytes} bytes.` }],
  );

/**
 * Reads a request body into memory, refusing it as soon as it is known to be too large (a
 * declared Content-Length, or the bytes counted as they stream in, so chunked bodies too) or too
 * slow. On refusal it stops listening and leaves the rest of the body unread; the error answer
 * then closes the connection (see early-answer.ts).
 */
export function readBody(
  stream: Readable,
  declaredLength: string | undefined,
  limits: BodyLimits,
): Promise<Buffer> {
  if (declaredLength !== undefined && Number(declaredLength) > limits.maxBytes) {
    return Promise.reject(bodyTooLarge(limits.maxBytes));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onGone);
      stream.off('close', onGone);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += bytes.length;
      if (received > limits.maxBytes) finish(bodyTooLarge(limits.maxBytes));
      else chunks.push(bytes);
    };
    const onEnd = () => finish();
    // The client went away mid-body: nobody is left to answer, but the handler must not wait.
    const onGone = () => finish(new ServiceError(400, 'invalid_body', 'The request body was cut off.'));
    const timer = setTimeout(() => {
      finish(
        new ServiceError(
          408,
          'body_timeout',
          `The request body did not arrive within ${limits.timeoutMs} ms (${received} bytes received).`,
        ),
      );
    }, limits.timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onGone);
    stream.on('close', onGone);
    stream.resume();
  });
}
