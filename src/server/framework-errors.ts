import type { Socket } from 'node:net';
import type { FastifyError } from 'fastify';
import { LIMITS } from '../core/schemas/limits.js';
import { bodyTooLarge } from './body-reader.js';
import { ServiceError, isServiceError } from './envelope.js';
import { closeGracefully, rawAnswer } from './early-answer.js';

/** fastify's router refuses longer path parameters (maxParamLength); a UUID is 36. */
export const MAX_PATH_PARAM = 100;

/** fastify's and Node's own errors, in the service's envelope and codes. */
export function asServiceError(error: FastifyError): ServiceError {
  if (isServiceError(error)) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge(LIMITS.maxBodyBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return new ServiceError(
        415,
        'unsupported_media_type',
        'The request body must be JSON (Content-Type: application/json).',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(400, 'invalid_json', 'The request body is empty; expected JSON.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ServiceError(
        414,
        'invalid_path',
        `A path parameter is longer than ${MAX_PATH_PARAM} characters; ids are UUIDs.`,
        [{ path: 'path', message: `Expected at most ${MAX_PATH_PARAM} characters per segment.` }],
      );
    case 'FST_ERR_BAD_URL':
      return new ServiceError(400, 'invalid_path', 'The path is not valid percent-encoded text.', [
        { path: 'path', message: 'Expected a valid URL path.' },
      ]);
    default: {
      const status = error.statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return new ServiceError(400, 'invalid_body', `The request is not valid: ${error.message}`);
      }
      return new ServiceError(500, 'internal', 'The local service failed unexpectedly.');
    }
  }
}

/** What Node's HTTP parser refused, before fastify or any route saw the request. */
function clientErrorAnswer(error: Error & { code?: string }): ServiceError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError(
        431,
        'bad_request',
        'The request line and headers are larger than allowed (16 KB).',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError(
        408,
        'bad_request',
        'The request headers did not arrive within the time allowed.',
      );
    default:
      return new ServiceError(
        400,
        'bad_request',
        `The HTTP request cannot be parsed (${error.code ?? 'malformed'}): ${error.message}.`.slice(0, 300),
      );
  }
}

/**
 * Node's `clientError`: a request too malformed to route (bad request line, oversized headers,
 * headers too slow). Answered in the envelope, then the connection is closed gracefully.
 */
export function onClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  closeGracefully(socket, rawAnswer(clientErrorAnswer(error)), 1_000);
}
