import type { ZodError } from 'zod';
import { SERVICE_CODES, type RunCode, type ServiceCode } from '../core/errors/index.js';
import { errorEnvelopeSchema, type ErrorDetail } from '../core/schemas/index.js';
import { describeNetworkCause, isConnectFailure, networkCodeOf } from './causes.js';

/** HTTP statuses worth another attempt; every other 4xx/5xx is final. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Codes the client itself gives to failures that carry no service code (see src/core/errors/codes.ts). */
export type ClientFailureCode = Extract<
  RunCode,
  | 'target_unreachable'
  | 'request_timeout'
  | 'aborted'
  | 'service_error'
  | 'response_too_large'
  | 'target_busy'
>;

/** A failed request's code: the service's (registry) code, or the client's own for the rest. */
export type RequestErrorCode = ServiceCode | ClientFailureCode;

const isServiceCode = (code: string): code is ServiceCode => Object.hasOwn(SERVICE_CODES, code);

export interface RequestErrorInit {
  method: string;
  /** Request path without the query string (queries can hold personal data). */
  path: string;
  code: RequestErrorCode;
  message: string;
  retryable: boolean;
  status?: number;
  details?: ErrorDetail[];
  retryAfterMs?: number;
  attempts?: number;
  /** For failures without an answer: the system's code (`ECONNREFUSED`, `ENOTFOUND`, TLS codes). */
  networkCode?: string;
}

/**
 * A request that did not succeed. `code` is the service's own code for HTTP failures (401
 * `unauthorized`, 400 `invalid_body`, ...) or a client code for failures without an answer.
 * The message never contains the API key: every message is built from redacted parts.
 */
export class RequestError extends Error {
  readonly status?: number;
  readonly code: RequestErrorCode;
  readonly details: ErrorDetail[];
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly method: string;
  readonly path: string;
  readonly networkCode?: string;
  /** How many attempts the call made before it gave up with this error. */
  attempts: number;

  constructor(init: RequestErrorInit) {
    super(init.message);
    this.name = 'RequestError';
    this.code = init.code;
    this.details = init.details ?? [];
    this.retryable = init.retryable;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts ?? 1;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.networkCode !== undefined) this.networkCode = init.networkCode;
  }
}

export const isRequestError = (error: unknown): error is RequestError => error instanceof RequestError;

/**
 * The request left and no answer came back (a reset, a cut, a timeout): the target may have
 * applied it. A connection that never opened sent nothing, so it is retried as usual.
 */
export const answerLost = (error: RequestError): boolean =>
  error.status === undefined && error.code !== 'aborted' && !isConnectFailure(error.networkCode);

export interface RequestContext {
  method: string;
  path: string;
  /** Applied to every piece of text that goes into a message. */
  redact: (text: string) => string;
  /** The start of a text, redacted first, never ending in the start of the key (redact.ts). */
  excerpt?: (text: string, maxChars: number) => string;
  /** Where the API key came from, named in a 401's message (never the key itself). */
  keySource?: string;
}

/** Fallback codes for error answers whose body is not the service's error envelope. */
const STATUS_CODES: Record<number, ServiceCode> = {
  400: 'invalid_body',
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3).
 * Unparseable values give undefined, so the plain backoff applies.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  // asctime (`Sun Nov  6 08:49:37 1994`) carries no zone; HTTP dates are all GMT.
  const at = Date.parse(/^[A-Za-z]{3} [A-Za-z]{3} +\d/.test(trimmed) ? `${trimmed} GMT` : trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

const describeDetails = (details: ErrorDetail[]): string =>
  details
    .slice(0, 5)
    .map((d) => `${d.index !== undefined ? `[${d.index}] ` : ''}${d.path || '(body)'}: ${d.message}`)
    .join('; ') + (details.length > 5 ? `; and ${details.length - 5} more` : '');

/**
 * Turn a non-2xx answer into a RequestError with the service's code, message and details.
 * `endpointName` (`E7 \`POST /v1/groups/\``) is the endpoint a 404 shows the target lacks: a route
 * without an id has nothing else to be missing.
 */
export function errorFromResponse(
  ctx: RequestContext,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  bodyText: string,
  endpointName?: string,
): RequestError {
  const payload = parseErrorPayload(bodyText);
  // A code the registry does not know (another service's) is named in the message, typed by status.
  const code: RequestErrorCode =
    payload && isServiceCode(payload.code) ? payload.code : (STATUS_CODES[status] ?? 'service_error');
  const answeredCode = payload?.code ?? code;
  const details = (payload?.details ?? []).map((d) => ({
    ...d,
    path: ctx.redact(d.path),
    message: ctx.redact(d.message),
  }));
  const serviceMessage = isRedirect(status)
    ? redirectMessage(headers.location, ctx.redact)
    : (payload?.message ??
      `a body that is not the service's error envelope (${describeBody(bodyText, ctx)})`);
  const retryAfterMs = status === 429 ? parseRetryAfter(headers['retry-after']) : undefined;
  const detailText = details.length > 0 ? ` [${describeDetails(details)}]` : '';
  const keyText =
    status === 401 && ctx.keySource !== undefined
      ? `; the API key from ${ctx.keySource} was refused, check it there`
      : '';
  const said =
    status === 404 && endpointName !== undefined
      ? `the target has no ${endpointName} (it said: ${serviceMessage}): is it the Contact Relationship Service, and which version?`
      : serviceMessage;
  const message = ctx.redact(
    `${ctx.method} ${ctx.path} answered HTTP ${status} ${answeredCode}: ${said}${detailText}${keyText}`,
  );
  return new RequestError({
    method: ctx.method,
    path: ctx.redact(ctx.path),
    status,
    code,
    message,
    details,
    retryable: RETRYABLE_STATUSES.has(status),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

function parseErrorPayload(bodyText: string) {
  try {
    const parsed = errorEnvelopeSchema.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data.data : undefined;
  } catch {
    return undefined;
  }
}

/** Redacted before it is cut: a cut through the key would otherwise show its first half. */
const describeBody = (bodyText: string, ctx: RequestContext): string => {
  if (bodyText.length === 0) return 'empty';
  const start = ctx.excerpt ? ctx.excerpt(bodyText, 60) : ctx.redact(bodyText).slice(0, 60);
  return `${bodyText.length} bytes starting ${JSON.stringify(start)}`;
};

const isRedirect = (status: number): boolean => status >= 300 && status <= 399;

/**
 * A redirect is not followed (the request carries the key and a body); it says the target URL is
 * not the service's. Where it points is shown without credentials, query or fragment.
 */
function redirectMessage(location: string | string[] | undefined, redact: (text: string) => string): string {
  const raw = Array.isArray(location) ? location[0] : location;
  if (raw === undefined || raw.trim() === '')
    return "a redirect without a Location; the target URL is not the service's";
  return (
    `a redirect to ${redact(shownLocation(raw.trim()))}, which the client does not follow (requests carry the ` +
    "API key): the target URL is likely not the service's; if that address is the service, give it as the target"
  );
}

const shownLocation = (location: string): string => {
  const base = 'http://relative.invalid';
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return 'an address that cannot be read';
  }
  const query = url.search ? '?...' : '';
  const path = `${url.pathname}${query}`;
  return url.origin === base ? path : `${url.protocol}//${url.host}${path}`;
};

/** A 2xx answer that does not have the shape the endpoint promises: final, not a crash. */
export function errorFromMalformedSuccess(
  ctx: RequestContext,
  status: number,
  problem: { bodyText: string; zodError?: ZodError },
): RequestError {
  const what = problem.zodError
    ? problem.zodError.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')
    : `not JSON (${describeBody(problem.bodyText, ctx)})`;
  return new RequestError({
    method: ctx.method,
    path: ctx.redact(ctx.path),
    status,
    code: 'service_error',
    retryable: false,
    message: ctx.redact(
      `${ctx.method} ${ctx.path} answered HTTP ${status} with a body of the wrong shape: ${what}`,
    ),
  });
}

export type TransportFailure = 'aborted' | 'timeout' | 'network';

/**
 * A failure before a complete answer arrived. Timeouts and network errors are retryable; an abort
 * by the caller is final. The underlying error's code is kept (`networkCode`) and said in words.
 */
export function errorFromTransport(
  ctx: RequestContext,
  kind: TransportFailure,
  cause: unknown,
  timeoutMs: number,
): RequestError {
  const base = { method: ctx.method, path: ctx.redact(ctx.path) };
  switch (kind) {
    case 'aborted':
      return new RequestError({
        ...base,
        code: 'aborted',
        retryable: false,
        message: ctx.redact(`${ctx.method} ${ctx.path} was aborted before it completed`),
      });
    case 'timeout':
      return new RequestError({
        ...base,
        code: 'request_timeout',
        retryable: true,
        message: ctx.redact(
          `${ctx.method} ${ctx.path} got no complete answer within ${formatDuration(timeoutMs)}`,
        ),
      });
    case 'network': {
      const networkCode = networkCodeOf(cause);
      return new RequestError({
        ...base,
        code: 'target_unreachable',
        retryable: true,
        ...(networkCode !== undefined ? { networkCode } : {}),
        message: ctx.redact(
          `${ctx.method} ${ctx.path} failed on the network: ${describeNetworkCause(cause)}`,
        ),
      });
    }
  }
}

/**
 * The target asked for a wait longer than the caller allows (`Retry-After`, or the pace it set):
 * final. Says when the target will take requests again, on the wall clock.
 */
export function errorFromLongWait(
  ctx: RequestContext,
  wait: { ms: number; until: string; maxMs: number; cause?: RequestError },
): RequestError {
  const why = wait.cause ? wait.cause.message : `${ctx.method} ${ctx.path} would wait for the target's pace`;
  return new RequestError({
    method: ctx.method,
    path: ctx.redact(ctx.path),
    ...(wait.cause?.status !== undefined ? { status: wait.cause.status } : {}),
    code: 'target_busy',
    retryable: false,
    ...(wait.cause ? { attempts: wait.cause.attempts } : {}),
    message: ctx.redact(
      `${why}; the target takes requests again at ${wait.until} (in ${formatDuration(wait.ms)}), ` +
        `later than the longest wait allowed (${formatDuration(wait.maxMs)})`,
    ),
  });
}

/** An answer longer than the client reads: final, retrying would read it again. */
export function errorFromOversizedAnswer(
  ctx: RequestContext,
  status: number,
  limitBytes: number,
): RequestError {
  return new RequestError({
    method: ctx.method,
    path: ctx.redact(ctx.path),
    status,
    code: 'response_too_large',
    retryable: false,
    message: ctx.redact(
      `${ctx.method} ${ctx.path} answered HTTP ${status} with a body over ${formatBytes(limitBytes)}, ` +
        `more than the client reads (maxResponseBytes); the target does not answer like the service`,
    ),
  });
}

/** "250 ms", "10 s", "2.5 s", "50 min", "24 h", "35 days". */
export const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 600_000) return `${Number((ms / 1000).toFixed(1))} s`;
  if (ms < 36_000_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.round(ms / 3_600_000)} h`;
  return Number.isFinite(ms) ? `${Math.round(ms / 86_400_000)} days` : 'an endless time';
};

const MB = 1024 * 1024;
/** "64 MB" for whole megabytes, else bytes: limits are set in one or the other. */
export const formatBytes = (bytes: number): string =>
  bytes >= MB && bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`;
