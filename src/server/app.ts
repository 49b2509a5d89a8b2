import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { LIMITS } from '../core/schemas/limits.js';
import type { KeyRing } from './auth.js';
import { ServiceError, errorEnvelope } from './envelope.js';
import type { AnswerFault, Faults } from './faults.js';
import { answerBeforeBody, bodyStillComing } from './early-answer.js';
import { MAX_PATH_PARAM, asServiceError, onClientError } from './framework-errors.js';
import { registerJsonBody } from './json-body.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import { contactRoutes } from './routes/contacts.js';
import { legacyRoutes } from './routes/legacy.js';
import { localRoutes } from './routes/local.js';
import { resourceRoutes } from './routes/resources.js';
import { searchRoutes } from './routes/search.js';
import { compilersOnFirstSchema } from './schema-compilers.js';
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
  /** Milliseconds a request body may take to arrive (default 30 s); beyond: 408. */
  bodyTimeoutMs?: number;
  /** False: the `Idempotency-Key` header is ignored, as by a target without the feature. */
  idempotency?: boolean;
  /** Called with every unexpected error (answered 500); the service itself never logs. */
  onInternalError?: (error: unknown) => void;
  /** Counts requests in flight, for the process that started the service. */
  traffic?: Traffic;
  /** False: the rate limit is not announced in the answers' headers (a target that does not). */
  rateLimitHeaders?: boolean;
  /** E11 (`/api/rest/`) reads the key bare from this header instead of `Authorization: Bearer`. */
  legacyAuthHeader?: string;
}

/** Requests being handled now and the most at once so far (what a client's concurrency reached). */
export interface Traffic {
  inFlight: number;
  peak: number;
  /**
   * Requests received, by `METHOD /route/template` (`:id` parameters, as routed; `METHOD *` for
   * paths no route has): bounded by the route table, so a long-running service does not grow it.
   */
  byRoute: Map<string, number>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

const unauthorized = (): ServiceError =>
  new ServiceError(401, 'unauthorized', 'A valid API key is required: send Authorization: Bearer <key>.');

/**
 * Sends an error in the envelope. While the request's body is still arriving (refused before or
 * while reading it) the answer goes out before the body is read and the connection is then
 * closed gracefully, so the client sees the answer rather than a reset.
 */
function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError): void {
  if (bodyStillComing(request.raw)) {
    answerBeforeBody(request, reply, error);
    return;
  }
  void reply.code(error.status).headers(error.headers).send(errorEnvelope(error));
}

/** Requests in flight, counted until their answer is written or their connection closes. */
function countTraffic(app: FastifyInstance, traffic: Traffic): void {
  app.addHook('onRequest', async (request, reply) => {
    const route = `${request.method} ${request.routeOptions.url ?? '*'}`;
    traffic.byRoute.set(route, (traffic.byRoute.get(route) ?? 0) + 1);
    traffic.inFlight += 1;
    traffic.peak = Math.max(traffic.peak, traffic.inFlight);
    reply.raw.once('close', () => {
      traffic.inFlight -= 1;
    });
  });
}

/** The `Authorization` value a request authenticates with: E11's own header when it has one. */
const authorizationOf = (request: FastifyRequest, legacyHeader: string | undefined): string | undefined => {
  if (legacyHeader === undefined || !request.url.startsWith('/api/rest/'))
    return request.headers.authorization;
  const value = request.headers[legacyHeader.toLowerCase()];
  return typeof value === 'string' ? `Bearer ${value}` : undefined;
};

/** Authenticates (401), then rate limit (429) and fail-rate (503), all before the body is read. */
function guardRequests(app: FastifyInstance, options: AppOptions): void {
  app.addHook('onRequest', async (request, reply) => {
    const userId = options.keys.resolve(authorizationOf(request, options.legacyAuthHeader));
    if (userId === undefined) throw unauthorized();
    request.userId = userId;
    const now = Date.now();
    const retryAfter = options.faults.rateLimited(userId, now);
    // Every answer to the user says the limit, so a client can pace before its first 429.
    const quota = options.rateLimitHeaders === false ? undefined : options.faults.quota(userId, now);
    if (quota) void reply.headers(rateLimitHeaders(quota));
    if (retryAfter !== undefined) {
      throw new ServiceError(
        429,
        'rate_limited',
        `Too many requests for this API key; retry after ${retryAfter} s.`,
        [],
        { 'retry-after': String(retryAfter) },
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
}

/** Latency and the answer faults (reset, cut halfway, slow) act on the answer, after the work. */
function injectAnswerFaults(app: FastifyInstance, faults: Faults): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const fault = reply.statusCode < 500 ? request.answerFault : undefined;
    if (fault === undefined) return payload;
    // The work is done and stored; the client never learns it (the ambiguous case).
    faults.applied(fault);
    const socket = request.raw.socket;
    if (fault === 'slow') await sleep(faults.slowMs);
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
}

/**
 * The local service as a fastify instance. Every request is authenticated before anything else,
 * routed or not: unknown paths, paths the router refuses (too long, badly encoded) and bodies
 * never read all get 401 without a valid key. Then rate limit (429), fail-rate (503), the body
 * (413 over 5 MB as it streams, 408 when too slow, 415 not JSON, 400 bad JSON), validate, apply.
 * Every error, fastify's and Node's own included, is answered in the service's envelope.
 */
export function buildApp(options: AppOptions): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? LIMITS.maxBodyBytes;
  const app = Fastify({
    logger: false,
    bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAM },
    forceCloseConnections: true,
    schemaController: { compilersFactory: compilersOnFirstSchema() },
    clientErrorHandler: onClientError,
    // Errors of the router itself, which no hook sees: authenticate first, then answer.
    frameworkErrors: (error, request, reply) => {
      const known = options.keys.resolve(request.headers.authorization) !== undefined;
      sendError(request, reply, known ? asServiceError(error) : unauthorized());
    },
  });
  app.decorateRequest('userId', 0);
  app.decorateRequest('answerFault', undefined);
  registerJsonBody(app, { maxBytes: bodyLimit, timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS });
  if (options.traffic) countTraffic(app, options.traffic);
  guardRequests(app, options);
  injectAnswerFaults(app, options.faults);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const serviceError = asServiceError(error);
    if (serviceError.status === 500) options.onInternalError?.(error);
    sendError(request, reply, serviceError);
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(
      request,
      reply,
      new ServiceError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`),
    );
  });

  const context: RouteContext = {
    store: options.store,
    maxBulk: options.maxBulk,
    idempotency: options.idempotency ?? true,
  };
  contactRoutes(app, context);
  searchRoutes(app, context);
  resourceRoutes(app, context);
  legacyRoutes(app, context);
  localRoutes(app, context);
  return app;
}
