import type { IncomingHttpHeaders } from 'node:http';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
import { errorFromTransport, isRequestError, parseRetryAfter, type RequestError } from './errors.js';
import { createPacer, type PacedStart, type Pacer, type PacingOptions } from './pacing.js';
import { redact } from './redact.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT';
export type QueryValue = string | number | boolean | undefined;

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
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  bodyText: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Requests in flight at once across every caller of this transport. */
  concurrency: number;
  /** Shared gate and pace after 429s; `false` turns both off. Default on with its defaults. */
  pacing?: PacingOptions | false;
}

export interface Transport {
  /** One attempt. Resolves with any HTTP answer; rejects with a RequestError when none came. */
  send(req: HttpRequest): Promise<HttpResponse>;
  /** Applied to all text the client produces, so the key can never leak through a message. */
  redact(text: string): string;
  /** An `aborted` RequestError for a request, for waits that end by cancellation. */
  abortedError(method: string, path: string): RequestError;
  close(): Promise<void>;
}

/** One undici agent per client: keep-alive connections reused by every request to the target. */
export function createTransport(options: TransportOptions): Transport {
  const origin = options.baseUrl.replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const redactText = (text: string) => redact(text, secrets);
  const agent = new Agent({
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: options.concurrency,
  });
  const limit = pLimit({ concurrency: options.concurrency, rejectOnClear: true });
  const authorization = `Bearer ${options.apiKey}`;
  const pacer: Pacer | undefined = options.pacing === false ? undefined : createPacer(options.pacing);

  async function sendNow(req: HttpRequest): Promise<HttpResponse> {
    const ctx = { method: req.method, path: req.path, redact: redactText };
    if (req.signal?.aborted) throw errorFromTransport(ctx, 'aborted', req.signal.reason, options.timeoutMs);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'contact-import',
      ...req.headers,
      authorization,
    };
    const body = req.bodyJson ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    if (body !== undefined) headers['content-type'] = 'application/json';
    // Serialized before the pace: the start the pacer counts is then close to the real send.
    let start: PacedStart | undefined;
    if (pacer) {
      try {
        start = await pacer.acquire(req.signal);
      } catch (error) {
        throw errorFromTransport(ctx, 'aborted', error, options.timeoutMs);
      }
    }
    // The timeout starts once the attempt does: waiting at the gate is not the service's delay.
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    try {
      req.onSent?.();
      const response = await request(origin + req.path + queryString(req.query), {
        dispatcher: agent,
        method: req.method,
        headers,
        body,
        signal,
      });
      if (start)
        pacer?.settled(start, {
          status: response.statusCode,
          ...retryAfterOf(response.statusCode, response.headers),
        });
      const bodyText = await response.body.text();
      return { status: response.statusCode, headers: response.headers, bodyText };
    } catch (error) {
      if (start) pacer?.settled(start, {});
      const kind = req.signal?.aborted ? 'aborted' : timeout.aborted ? 'timeout' : 'network';
      throw errorFromTransport(ctx, kind, error, options.timeoutMs);
    }
  }

  return {
    send: (req) =>
      limit(sendNow, req).catch((error: unknown) => {
        if (isRequestError(error)) throw error;
        // Only a request still queued when the transport closed gets here.
        throw errorFromTransport(
          { method: req.method, path: req.path, redact: redactText },
          'aborted',
          error,
          options.timeoutMs,
        );
      }),
    redact: redactText,
    abortedError: (method, path) =>
      errorFromTransport({ method, path, redact: redactText }, 'aborted', undefined, options.timeoutMs),
    close: async () => {
      limit.clearQueue();
      await agent.close();
    },
  };
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
