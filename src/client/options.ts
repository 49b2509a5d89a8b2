import { assertUsable } from './api-key.js';
import { parseTargetUrl } from './target-url.js';
import type { ClientOptions } from './types.js';

const MB = 1024 * 1024;

export const CLIENT_DEFAULTS = {
  /** Base of every request's timeout, from sending to the last byte of the answer. */
  timeoutMs: 30_000,
  /** Added to a request's timeout per megabyte of its body: a 5 MB chunk gets 30 s + 50 s. */
  timeoutPerMbMs: 10_000,
  /** The start probe's timeout unless `timeoutMs` is given (then the probe waits that long). */
  probeTimeoutMs: 10_000,
  /** Opening a connection (DNS, TCP, TLS). */
  connectTimeoutMs: 5_000,
  /** Longest answer body read; beyond it `response_too_large`. */
  maxResponseBytes: 64 * MB,
  retries: 6,
  minRetryDelayMs: 250,
  maxRetryDelayMs: 30_000,
  /** The longest wait for the target (`Retry-After`, pacing); a longer one fails `target_busy`. */
  maxWaitMs: 300_000,
  concurrency: 4,
} as const;

export type ResolvedClientOptions = Required<
  Pick<ClientOptions, 'apiKey' | 'keySource' | keyof typeof CLIENT_DEFAULTS>
> &
  Pick<ClientOptions, 'signal' | 'stopWaiting' | 'onRetry' | 'onWait' | 'random' | 'pacing'> & {
    baseUrl: string;
    legacy?: { origin: string; authHeader?: string };
  };

/** Every option checked once, with its default; errors name the option and what it expected. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  assertUsable(options.apiKey, 'the client options');
  const positive = (name: keyof typeof CLIENT_DEFAULTS): number => {
    const value = options[name];
    if (value === undefined) return CLIENT_DEFAULTS[name];
    if (!Number.isFinite(value) || value < 1)
      throw new TypeError(`Client option ${name} is ${value}; expected a number >= 1.`);
    return value;
  };
  const whole = (name: keyof typeof CLIENT_DEFAULTS): number => {
    const value = options[name];
    if (value === undefined) return CLIENT_DEFAULTS[name];
    if (!Number.isInteger(value) || value < 0)
      throw new TypeError(`Client option ${name} is ${value}; expected a whole number >= 0.`);
    return value;
  };
  const timeoutMs = positive('timeoutMs');
  return {
    baseUrl: parseTargetUrl(options.baseUrl).url,
    apiKey: options.apiKey,
    keySource: options.keySource ?? 'the client options (apiKey)',
    timeoutMs,
    timeoutPerMbMs: whole('timeoutPerMbMs'),
    // An explicit request timeout (--timeout) is the probe's too: a slow target is slow at the start.
    probeTimeoutMs:
      options.probeTimeoutMs !== undefined || options.timeoutMs === undefined
        ? positive('probeTimeoutMs')
        : timeoutMs,
    connectTimeoutMs: positive('connectTimeoutMs'),
    maxResponseBytes: positive('maxResponseBytes'),
    retries: whole('retries'),
    minRetryDelayMs: whole('minRetryDelayMs'),
    maxRetryDelayMs: whole('maxRetryDelayMs'),
    maxWaitMs: whole('maxWaitMs'),
    concurrency: positive('concurrency'),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stopWaiting ? { stopWaiting: options.stopWaiting } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.pacing !== undefined ? { pacing: options.pacing } : {}),
    ...(options.legacy ? { legacy: legacyOf(options.legacy) } : {}),
  };
}

/** A header name as HTTP allows one (RFC 9110 token); the key must not go out in anything else. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const legacyOf = (
  legacy: NonNullable<ClientOptions['legacy']>,
): { origin: string; authHeader?: string } | undefined => {
  if (legacy.authHeader !== undefined && !HEADER_NAME.test(legacy.authHeader))
    throw new TypeError(
      `Client option legacy.authHeader is "${legacy.authHeader}"; expected an HTTP header name.`,
    );
  if (legacy.baseUrl === undefined && legacy.authHeader === undefined) return undefined;
  return {
    origin: legacy.baseUrl !== undefined ? parseTargetUrl(legacy.baseUrl).url : '',
    ...(legacy.authHeader !== undefined ? { authHeader: legacy.authHeader } : {}),
  };
};
