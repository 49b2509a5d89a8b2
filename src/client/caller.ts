import { randomUUID } from 'node:crypto';
import { endpointKey, pathOf, type AnyEndpoint, type RequestParts } from './endpoint.js';
import { endpointName } from './endpoints.js';
import {
  errorFromLongWait,
  errorFromMalformedSuccess,
  errorFromResponse,
  isRequestError,
  RequestError,
} from './errors.js';
import { createTransport, type HttpResponse, type Transport } from './http.js';
import { resolveClientOptions } from './options.js';
import { runWithRetry, type RetryPolicy } from './retry.js';
import { createStatsCounter, type RequestStats } from './stats.js';
import type { ClientOptions, WaitEvent } from './types.js';
import { wallClockAfter } from './wait.js';

/** Waits shorter than this are not reported (onWait): the pace's spacing is milliseconds. */
export const REPORTED_WAIT_MS = 1000;

/** How one call departs from the client's defaults (the start probe). */
export interface CallPolicy {
  /** Replaces the base request timeout. */
  timeoutMs?: number;
  /** Retryable failures that are final for this call. */
  final?: (error: RequestError) => boolean;
}

/** Sends declared endpoints: retries by the endpoint's class, checks answers, counts requests. */
export interface Caller {
  invoke<Out>(
    endpoint: AnyEndpoint & { result: (answer: never) => Out },
    parts: RequestParts,
    policy?: CallPolicy,
  ): Promise<Out>;
  /** The start probe's timeout (ClientOptions.probeTimeoutMs). */
  readonly probeTimeoutMs: number;
  stats(): RequestStats;
  /** Closes the keep-alive agent; queued requests fail as aborted. */
  close(): Promise<void>;
}

export function createCaller(clientOptions: ClientOptions): Caller {
  const options = resolveClientOptions(clientOptions);
  const report = (reason: WaitEvent['reason'], delayMs: number) => {
    if (delayMs >= REPORTED_WAIT_MS) options.onWait?.({ reason, delayMs, until: wallClockAfter(delayMs) });
  };
  const transport = createTransport({ ...options, onWait: (ms) => report('pace', ms) });
  const counter = createStatsCounter();
  const retryPolicy: RetryPolicy = {
    retries: options.retries,
    minDelayMs: options.minRetryDelayMs,
    maxDelayMs: options.maxRetryDelayMs,
    maxWaitMs: options.maxWaitMs,
    ...(options.random ? { random: options.random } : {}),
  };

  async function invoke(
    endpoint: AnyEndpoint,
    parts: RequestParts,
    policy: CallPolicy = {},
  ): Promise<unknown> {
    const key = endpointKey(endpoint);
    const path = pathOf(endpoint.route, parts.id);
    // Ids in paths come from callers; a path that somehow holds the key must not carry it out.
    const shownPath = transport.redact(path);
    const signal = combine([options.signal, parts.signal]);
    // A wait before a retry ends on the call's cancellation and on a graceful stop alike.
    const waitSignal = combine([signal, options.stopWaiting]);
    // One key for every attempt of a create: the service answers a retry with the first result.
    const headers =
      endpoint.retry === 'create' ? { 'idempotency-key': parts.idempotencyKey ?? randomUUID() } : undefined;
    const refused: Refused = {};
    try {
      const answer = await runWithRetry({
        policy: retryPolicy,
        ...(waitSignal ? { signal: waitSignal } : {}),
        ...(policy.final ? { final: policy.final } : {}),
        abortError: () => transport.abortedError(endpoint.method, path),
        tooLong: (cause, ms) =>
          errorFromLongWait(transport.context(endpoint.method, path), {
            ms,
            until: wallClockAfter(ms),
            maxMs: options.maxWaitMs,
            cause,
          }),
        onRetry: (error, attempt, delayMs) => {
          options.onRetry?.({ method: endpoint.method, path: shownPath, attempt, error, delayMs });
          report(delayMs === error.retryAfterMs ? 'retry-after' : 'backoff', delayMs);
        },
        attempt: async (attemptNumber) => {
          const response = await transport.send({
            method: endpoint.method,
            path,
            ...(parts.query ? { query: parts.query } : {}),
            ...(parts.bodyJson !== undefined ? { bodyJson: parts.bodyJson } : { body: parts.body }),
            ...(headers ? { headers } : {}),
            ...(signal ? { signal } : {}),
            ...(policy.timeoutMs !== undefined ? { timeoutMs: policy.timeoutMs } : {}),
            ...(endpoint.base ? { base: endpoint.base } : {}),
            onSent: sentHook(parts, attemptNumber, (what) => counter.count(key, what), refused),
          });
          if (response.headers['idempotent-replayed'] === 'true') parts.onReplayed?.();
          return checked(transport, endpoint, path, response);
        },
      });
      return endpoint.result(answer);
    } catch (error) {
      if (refused.hookThrew) throw refused.error;
      counter.count(key, 'failed');
      if (isRequestError(error)) throw error;
      throw unexpectedFailure(transport, endpoint, path, error);
    }
  }

  return {
    invoke: invoke as Caller['invoke'],
    probeTimeoutMs: options.probeTimeoutMs,
    stats: counter.snapshot,
    close: () => transport.close(),
  };
}

/** What a call's `onSent` threw, if it did. */
interface Refused {
  hookThrew?: boolean;
  error?: unknown;
}

/**
 * Called as an attempt is handed to the network: counts it, and on the first attempt runs the
 * call's `onSent`. What that throws is kept (`keep`): the call ends with it, unchanged and not
 * retried, and nothing is sent.
 */
const sentHook =
  (parts: RequestParts, attemptNumber: number, count: (what: 'sent' | 'retried') => void, keep: Refused) =>
  (): void => {
    if (attemptNumber === 1 && parts.onSent) {
      try {
        parts.onSent();
      } catch (error) {
        keep.hookThrew = true;
        keep.error = error;
        throw error;
      }
    }
    count('sent');
    if (attemptNumber > 1) count('retried');
  };

/**
 * How many answers a response schema checks before zod's compiled fast path is worth building: on
 * a schema's first check zod compiles one for each object in it, which costs more than checking a
 * few answers without it. A short run's few answers of each endpoint go without; a long run's
 * many get it.
 */
const CHECKS_BEFORE_FAST_PATH = 8;
const checksOf = new WeakMap<object, number>();

const answerCheckOptions = (schema: object): { jitless: boolean } => {
  const checks = checksOf.get(schema) ?? 0;
  checksOf.set(schema, checks + 1);
  return { jitless: checks < CHECKS_BEFORE_FAST_PATH };
};

/** The answer checked against the endpoint's response schema; anything else is a RequestError. */
const checked = (
  transport: Transport,
  endpoint: AnyEndpoint,
  path: string,
  response: HttpResponse,
): unknown => {
  const ctx = transport.context(endpoint.method, path);
  if (response.status < 200 || response.status > 299) {
    // A route without an id that answers 404 is a route the target does not have.
    const lacking = endpoint.route.includes('{id}') ? undefined : endpointName(endpoint);
    throw errorFromResponse(ctx, response.status, response.headers, response.bodyText, lacking);
  }
  let json: unknown;
  try {
    json = JSON.parse(response.bodyText);
  } catch {
    throw errorFromMalformedSuccess(ctx, response.status, { bodyText: response.bodyText });
  }
  const parsed = endpoint.response.safeParse(json, answerCheckOptions(endpoint.response));
  if (!parsed.success) {
    throw errorFromMalformedSuccess(ctx, response.status, {
      bodyText: response.bodyText,
      zodError: parsed.error,
    });
  }
  return parsed.data;
};

/** The signals given, as one. */
const combine = (given: (AbortSignal | undefined)[]): AbortSignal | undefined => {
  const signals = given.filter((s): s is AbortSignal => s !== undefined);
  return signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
};

/** A bug or an unexpected library error: keep the contract (a RequestError, key redacted). */
const unexpectedFailure = (
  transport: Transport,
  endpoint: AnyEndpoint,
  path: string,
  error: unknown,
): RequestError => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new RequestError({
    method: endpoint.method,
    path: transport.redact(path),
    code: 'service_error',
    retryable: false,
    message: transport.redact(`${endpoint.method} ${path} failed unexpectedly: ${text}`),
  });
};
