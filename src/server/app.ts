import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { LIMITS } from '../core/schemas/limits.js';
import type { KeyRing } from './auth.js';
import { ServiceError, errorEnvelope, isServiceError } from './envelope.js';
import type { AnswerFault, Faults } from './faults.js';
import { registerJsonBody } from './json-body.js';
import { contactRoutes } from './routes/contacts.js';
import { customFieldRoutes } from './routes/custom-fields.js';
import { groupRoutes } from './routes/groups.js';
import { legacyRoutes } from './routes/legacy.js';
import { localRoutes } from './routes/local.js';
import { reminderRoutes } from './routes/reminders.js';
import { searchRoutes } from './routes/search.js';
import type { RouteContext } from './routes/context.js';
import type { Store } from './store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user; set by the auth hook before any handler runs. */
    userId: number;
    /** What the injected faults do to this request's answer (reset, cut off halfway, slow). */
    answerFault: AnswerFault;
  }
}

export interface AppOptions {
  store: Store;
  keys: KeyRing;
  faults: Faults;
  maxBulk: number;
  bodyLimit?: number;
  /** Called with every unexpected error (answered 500); the service itself never logs. */
  onInternalError?: (error: unknown) => void;
  /** Counts requests in flight, for the process that started the service. */
  traffic?: Traffic;
}

/** Requests being handled now and the most at once so far (what a client's concurrency reached). */
export interface Traffic {
  inFlight: number;
  peak: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Fastify's own 4xx errors (body parsing, media type) in the service's envelope. */
function asServiceError(error: FastifyError): ServiceError {
  if (isServiceError(error)) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(
        413,
        'payload_too_large',
        `The request body is larger than ${LIMITS.maxBodyBytes} bytes.`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(
        415,
        'unsupported_media_type',
        'The request body must be JSON (Content-Type: application/json).',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(400, 'invalid_json', 'The request body is empty; expected JSON.');
    default: {
      const status = error.statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        return new ServiceError(400, 'invalid_body', `The request is not valid: ${error.message}`);
      }
      return new ServiceError(500, 'internal', 'The local service failed unexpectedly.');
    }
  }
}

/**
 * The local service as a fastify instance. Order of every request: authenticate (401), rate
 * limit (429), fail-rate (503), all before the body is read; then parse, validate, apply; the
 * latency and reset faults act on the answer.
 */
export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? LIMITS.maxBodyBytes,
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
  });
  app.decorateRequest('userId', 0);
  app.decorateRequest('answerFault', undefined);
  registerJsonBody(app, options.bodyLimit ?? LIMITS.maxBodyBytes);

  const traffic = options.traffic;
  if (traffic) {
    app.addHook('onRequest', async () => {
      traffic.inFlight += 1;
      traffic.peak = Math.max(traffic.peak, traffic.inFlight);
    });
    app.addHook('onResponse', async () => {
      traffic.inFlight -= 1;
    });
  }

  app.addHook('onRequest', async (request) => {
    const userId = options.keys.resolve(request.headers.authorization);
    if (userId === undefined) {
      throw new ServiceError(
        401,
        'unauthorized',
        'A valid API key is required: send Authorization: Bearer <key>.',
      );
    }
    request.userId = userId;
    const retryAfter = options.faults.rateLimited(userId);
    if (retryAfter !== undefined) {
      throw new ServiceError(
        429,
        'rate_limited',
        `Too many requests for this API key; retry after ${retryAfter} s.`,
        [],
        {
          'retry-after': String(retryAfter),
        },
      );
    }
    if (options.faults.shouldFail()) {
      throw new ServiceError(
        503,
        'injected_fault',
        'Injected fault (--fail-rate): the request was not applied.',
      );
    }
    request.answerFault = options.faults.answerFault();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (options.faults.latencyMs > 0) await sleep(options.faults.latencyMs);
    const fault = reply.statusCode < 500 ? request.answerFault : undefined;
    if (fault === undefined) return payload;
    // The work is done and stored; the client never learns it (the ambiguous case).
    options.faults.applied(fault);
    const socket = request.raw.socket;
    if (fault === 'slow') await sleep(options.faults.slowMs);
    else if (fault === 'reset') socket?.destroy();
    else if (socket && typeof payload === 'string') {
      // Headers and half the body, then a TCP reset: the answer breaks off mid-response.
      const body = Buffer.from(payload);
      const head = `HTTP/1.1 ${reply.statusCode} OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${body.length}\r\n\r\n`;
      // Awaited, so fastify writes nothing of its own before the reset.
      await new Promise<void>((done) =>
        socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, body.length >> 1)]), () => done()),
      );
      socket.resetAndDestroy();
    } else socket?.destroy();
    return payload;
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const serviceError = asServiceError(error);
    if (serviceError.status === 500) options.onInternalError?.(error);
    void reply.code(serviceError.status).headers(serviceError.headers).send(errorEnvelope(serviceError));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ServiceError(
      404,
      'not_found',
      `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`,
    );
    void reply.code(404).send(errorEnvelope(error));
  });

  const context: RouteContext = { store: options.store, maxBulk: options.maxBulk };
  contactRoutes(app, context);
  searchRoutes(app, context);
  reminderRoutes(app, context);
  groupRoutes(app, context);
  customFieldRoutes(app, context);
  legacyRoutes(app, context);
  localRoutes(app, context);
  return app;
}
