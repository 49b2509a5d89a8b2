import type { IncomingHttpHeaders } from 'node:http';
import pLimit from 'p-limit';
import type { Agent, Dispatcher } from 'undici';
import type { HttpMethod, QueryValue } from './endpoint.js';
import {
  errorFromLongWait,
  errorFromOversizedAnswer,
  errorFromTransport,
  isRequestError,
  parseRetryAfter,
  type RequestContext,
  type RequestError,
} from './errors.js';
import { createPacer, LongWait, type PacedStart, type Pacer, type PacingOptions } from './pacing.js';
import { announcedLimit } from './rate-limit-headers.js';
import { createRedactor } from './redact.js';
import { wallClockAfter } from './wait.js';

export interface HttpRequest {
  method: HttpMethod;
  /** Path from the origin, e.g. `/v1/contacts/`; no query string. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Serialized as JSON when present. */
  body?: unknown;
  /** A body that is JSON text already (sent as is, `body` ignored). */
  bodyJson?: string;
  headers?: Record<string, string>;
  /** The caller's cancellation (client-wide and per-call signals already combined). */
  signal?: AbortSignal;
  /** Called once the request is handed to the network, to count attempts honestly. */
  onSent?: () => void;
  /** Replaces the transport's base timeout for this request (the start probe). */
  timeoutMs?: number;
  /** `legacy`: E11, sent to the legacy origin with its own authentication header. */
  base?: 'legacy';
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bodyText: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  /** Base of each request's timeout; `timeoutPerMbMs` is added per megabyte of its body. */
  timeoutMs: number;
  timeoutPerMbMs: number;
  connectTimeoutMs: number;
  /** Longest answer body read; a longer one is cut off as `response_too_large`. */
  maxResponseBytes: number;
  /**
   * Requests in flight at once across every caller of this transport: the run's one limit
   * (`--concurrency`). The connection pool is sized from it, and the load stage only prepares as
   * many chunks ahead; neither is a limit of its own.
   */
  concurrency: number;
  /** Named in a 401's message: where the API key came from. */
  keySource: string;
  /** Shared gate and pace after 429s; `false` turns both off. Default on with its defaults. */
  pacing?: PacingOptions | false;
  /** A pace or gate wait longer than this fails the request (`target_busy`). Default none. */
  maxWaitMs?: number;
  /** Ends every pace or gate wait at once (the request fails `aborted`); requests sent go on. */
  stopWaiting?: AbortSignal;
  /** Told before each pace or gate wait, with its length. */
  onWait?: (ms: number) => void;
  /** Where E11 goes (`--legacy-target`) and the header its key goes in (`--legacy-auth-header`). */
  legacy?: LegacyTarget;
}

/** E11's origin, and the header that carries the key bare instead of `Authorization: Bearer`. */
export interface LegacyTarget {
  origin: string;
  authHeader?: string;
}

export interface Transport {
  /** One attempt. Resolves with any HTTP answer; rejects with a RequestError when none came. */
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Applied to all text the client produces, so the key can never leak through a message. */
  redact(text: string): string;
  /** The context errors of a request are described in (method, path, redaction, key source). */
  context(method: string, path: string): RequestContext;
  /** An `aborted` RequestError for a request, for waits that end by cancellation. */
  abortedError(method: string, path: string): RequestError;
  close(): Promise<void>;
}

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;

/**
 * undici, imported when a client first sends: a command that sends nothing (validate, a dry run,
 * help) starts without parsing it.
 */
const loadUndici = (): Promise<Undici> =>
  // A CommonJS package: its `module.exports` is the default export under Node and in the bundle.
  (undici ??= import('undici').then((module) => (module as { default?: Undici }).default ?? module));

/** One undici agent per client: keep-alive connections reused by every request to the target. */
export function createTransport(options: TransportOptions): Transport {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const redactText = createRedactor([options.apiKey]);
  const context = (method: string, path: string): RequestContext => ({
    method,
    path,
    redact: redactText,
    excerpt: redactText.excerpt,
    keySource: options.keySource,
  });
  const connection = lazyConnection(options);
  const limit = pLimit({ concurrency: options.concurrency, rejectOnClear: true });
  const authorization = { authorization: `Bearer ${options.apiKey}` };
  const legacyAuthorization = options.legacy?.authHeader
    ? { [options.legacy.authHeader.toLowerCase()]: options.apiKey }
    : authorization;
  const pacer = pacerOf(options);

  async function sendNow(req: HttpRequest): Promise<HttpResponse> {
    const ctx = context(req.method, req.path);
    if (req.signal?.aborted) throw errorFromTransport(ctx, 'aborted', req.signal.reason, options.timeoutMs);
    const body = req.bodyJson ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    const legacy = req.base === 'legacy';
    const headers = headersOf(req, legacy ? legacyAuthorization : authorization, body !== undefined);
    // Serialized before the pace: the start the pacer counts is then close to the real send.
    const start = pacer ? await pacedStart(pacer, req, ctx, options) : undefined;
    // The timeout starts once the attempt does: waiting at the gate is not the service's delay.
    const timeoutMs = timeoutFor(req.timeoutMs ?? options.timeoutMs, body, options.timeoutPerMbMs);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    handOff(req, () => start && pacer?.settled(start, {}));
    try {
      const { agent, request } = await connection.open();
      const base = (legacy && options.legacy?.origin.replace(/\/+$/, '')) || origin;
      const response = await request(base + req.path + queryString(req.query), {
        dispatcher: agent,
        method: req.method,
        headers,
        body,
        signal,
      });
      if (start) {
        pacer?.settled(start, {
          status: response.statusCode,
          ...retryAfterOf(response.statusCode, response.headers),
        });
        const announced = announcedLimit(response.headers);
        if (announced) pacer?.announce(announced);
      }
      const bodyText = await readLimited(response, options.maxResponseBytes);
      if (bodyText === undefined)
        throw errorFromOversizedAnswer(ctx, response.statusCode, options.maxResponseBytes);
      return { status: response.statusCode, headers: response.headers, bodyText };
    } catch (error) {
      if (isRequestError(error)) throw error;
      if (start) pacer?.settled(start, {});
      const kind = req.signal?.aborted ? 'aborted' : timeout.aborted ? 'timeout' : 'network';
      throw errorFromTransport(ctx, kind, error, timeoutMs);
    }
  }

  return {
    send: (req) =>
      limit(sendNow, req).catch((error: unknown) => {
        if (isRequestError(error)) throw error;
        if (error instanceof HandOffRefused) throw error.reason;
        // Only a request still queued when the transport closed gets here.
        throw errorFromTransport(context(req.method, req.path), 'aborted', error, options.timeoutMs);
      }),
    redact: redactText,
    context,
    abortedError: (method, path) =>
      errorFromTransport(context(method, path), 'aborted', undefined, options.timeoutMs),
    close: async () => {
      limit.clearQueue();
      await connection.close();
    },
  };
}

/** undici's `request` and the transport's agent, made on its first send; closing before one closes nothing. */
const lazyConnection = (options: TransportOptions) => {
  let opened: Promise<{ agent: Agent; request: Undici['request'] }> | undefined;
  return {
    open: () =>
      (opened ??= loadUndici().then((lib) => ({ agent: createAgent(lib, options), request: lib.request }))),
    close: async (): Promise<void> => {
      if (opened) await (await opened).agent.close();
    },
  };
};

/** What `onSent` threw: the request was not sent, and the caller gets the error as it was thrown. */
class HandOffRefused extends Error {
  constructor(readonly reason: unknown) {
    super('the request was not handed to the network');
  }
}

/** Tells the caller its request leaves; what it throws ends the request unsent (`unstart` the pace). */
const handOff = (req: HttpRequest, unstart: () => void): void => {
  try {
    req.onSent?.();
  } catch (error) {
    unstart();
    throw new HandOffRefused(error);
  }
};

/** The shared gate and pace, bounded by the longest wait and telling of each wait; or none. */
const pacerOf = (options: TransportOptions): Pacer | undefined =>
  options.pacing === false
    ? undefined
    : createPacer({
        ...options.pacing,
        ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
        ...(options.onWait ? { onWait: options.onWait } : {}),
      });

/** Waits for the pace; a wait past `maxWaitMs` is `target_busy`, a stopped one `aborted`. */
async function pacedStart(
  pacer: Pacer,
  req: HttpRequest,
  ctx: RequestContext,
  options: TransportOptions,
): Promise<PacedStart> {
  try {
    return await pacer.acquire(req.signal, options.stopWaiting);
  } catch (error) {
    if (error instanceof LongWait) {
      const { ms } = error;
      throw errorFromLongWait(ctx, { ms, until: wallClockAfter(ms), maxMs: options.maxWaitMs ?? ms });
    }
    throw errorFromTransport(ctx, 'aborted', error, options.timeoutMs);
  }
}

const MB = 1024 * 1024;

/** Sending a big body takes longer: the base plus `perMbMs` per megabyte of it. */
const timeoutFor = (baseMs: number, body: string | undefined, perMbMs: number): number =>
  body === undefined ? baseMs : baseMs + Math.ceil((Buffer.byteLength(body) / MB) * perMbMs);

/** Keep-alive connections to the target, as many as requests may be in flight. */
const createAgent = (lib: Undici, options: TransportOptions): Agent =>
  new lib.Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    // As many sockets as the request limit lets requests out: none waits for one, none sits idle.
    connections: options.concurrency,
    connect: { timeout: options.connectTimeoutMs },
  });

const headersOf = (
  req: HttpRequest,
  authorization: Record<string, string>,
  json: boolean,
): Record<string, string> => ({
  accept: 'application/json',
  'user-agent': 'contact-import',
  ...req.headers,
  ...authorization,
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/**
 * The answer's body as text, or undefined once it passes `limit` bytes: then the body is
 * destroyed (closing the connection) instead of read on, so memory stays bounded whatever the
 * target sends. A declared Content-Length over the limit is refused before reading a byte.
 */
async function readLimited(response: Dispatcher.ResponseData, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      response.body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  // Decoded as undici's text() would, a byte order mark dropped.
  return Buffer.concat(chunks, size)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

function retryAfterOf(status: number, headers: IncomingHttpHeaders): { retryAfterMs?: number } {
  if (status !== 429) return {};
  const retryAfterMs = parseRetryAfter(headers['retry-after']);
  return retryAfterMs === undefined ? {} : { retryAfterMs };
}

function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
