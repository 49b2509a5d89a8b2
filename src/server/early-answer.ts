import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope, type ServiceError } from './envelope.js';

/** How long a closing connection keeps reading what the client still sends. */
export const LINGER_MS = 5_000;

/** A complete HTTP/1.1 error answer in the service's envelope, as bytes for a raw socket. */
export function rawAnswer(error: ServiceError): string {
  const body = JSON.stringify(errorEnvelope(error));
  const lines = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** True while a request's body is still arriving (declared, or chunked, and not read to its end). */
export function bodyStillComing(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}

/**
 * Writes the answer, half-closes, and keeps reading (and dropping) whatever the client still
 * sends for up to `lingerMs` before closing for good. Closing a socket with unread input makes the
 * kernel send a reset, which can destroy the answer before a client that writes its whole body
 * first ever reads it; lingering lets it see the 413 (or 408, 401...) instead of a dropped
 * connection.
 */
export function closeGracefully(socket: Socket, answer: string, lingerMs: number = LINGER_MS): void {
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => socket.destroy());
  socket.end(answer);
  socket.resume();
}

/**
 * Answers a request whose body is still arriving, outside fastify's reply (which would close the
 * socket at once after `Connection: close`), then closes the connection gracefully.
 */
export function answerBeforeBody(request: FastifyRequest, reply: FastifyReply, error: ServiceError): void {
  const socket = request.raw.socket;
  void reply.hijack();
  // The parser still feeds the rest of the body into the request: let it flow and drop it.
  request.raw.resume();
  closeGracefully(socket, rawAnswer(error));
}
