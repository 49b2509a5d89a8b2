import type { AddressInfo } from 'node:net';
import { LIMITS } from '../core/schemas/limits.js';
import { ImportError } from '../core/errors/import-error.js';
import { buildApp } from './app.js';
import { KeyRing, generateApiKey, isUsableApiKey } from './auth.js';
import { Faults, type FaultCounts } from './faults.js';
import { Store } from './store/index.js';
import { DEFAULT_PORT } from './defaults.js';

export { DEFAULT_PORT };

export interface LocalServiceOptions {
  /** Default '127.0.0.1': loopback unless told otherwise. */
  host?: string;
  /** Default 8787; 0 = any free port. */
  port?: number;
  /** A file path or ':memory:' (default). */
  db?: string;
  /** One user per key; when empty, one user with a fresh random key is created. */
  apiKeys?: string[];
  /** Default LIMITS.maxBulkDefault (500). */
  maxBulk?: number;
  /** Requests per second per key; undefined = none. */
  rateLimit?: number;
  /** Default true: every answer announces `rateLimit` in headers; false: a target that does not. */
  rateLimitHeaders?: boolean;
  /** 0..1, 503 before any work. */
  failRate?: number;
  /** 0..1, apply then destroy the socket. */
  resetRate?: number;
  /** Delay every answer. */
  latencyMs?: number;
  /** 0..1, apply then send half the answer and reset the connection. */
  cutRate?: number;
  /** 0..1, apply then answer only after `slowMs` (default 2000). */
  slowRate?: number;
  slowMs?: number;
  /** For fault decisions. */
  seed?: number;
  /** Milliseconds a request body may take to arrive; default 30,000; beyond it 408. */
  bodyTimeoutMs?: number;
  /** Default true; false ignores the `Idempotency-Key` header (a target without the feature). */
  idempotency?: boolean;
  /** Told about every unexpected error (answered 500); the service never logs by itself. */
  onInternalError?: (error: unknown) => void;
  /** E11 takes the key bare in this header instead of `Authorization: Bearer` (a legacy gateway). */
  legacyAuthHeader?: string;
}

export interface LocalService {
  /** Origin, e.g. http://127.0.0.1:43211 (v1 at `${url}/v1`, E11 at `${url}/api/rest`). */
  url: string;
  /** The keys of its users (generated ones included), for the process that started it. */
  apiKeys: string[];
  /** Registers a user, returns its key. */
  addUser(apiKey?: string): string;
  /** How many faults of each kind were injected so far. */
  injectedFaults(): FaultCounts;
  /** The most requests the service handled at once so far. */
  peakInFlight(): number;
  /** Requests received so far, by `METHOD /route/template` (e.g. `GET /v1/search/contacts`). */
  requestCounts(): Record<string, number>;
  close(): Promise<void>;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new ImportError('config_invalid', message);
}

function checkOptions(o: LocalServiceOptions): void {
  const rate = (value: number | undefined) =>
    value === undefined || (Number.isFinite(value) && value >= 0 && value <= 1);
  check(
    o.port === undefined || (Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535),
    `port must be 0..65535, got ${o.port}.`,
  );
  check(
    o.maxBulk === undefined || (Number.isInteger(o.maxBulk) && o.maxBulk >= 1),
    `maxBulk must be a whole number >= 1, got ${o.maxBulk}.`,
  );
  check(
    o.rateLimit === undefined || (Number.isInteger(o.rateLimit) && o.rateLimit >= 1),
    `rateLimit must be a whole number >= 1, got ${o.rateLimit}.`,
  );
  check(rate(o.failRate), `failRate must be between 0 and 1, got ${o.failRate}.`);
  check(rate(o.resetRate), `resetRate must be between 0 and 1, got ${o.resetRate}.`);
  check(rate(o.cutRate), `cutRate must be between 0 and 1, got ${o.cutRate}.`);
  check(rate(o.slowRate), `slowRate must be between 0 and 1, got ${o.slowRate}.`);
  check(
    o.slowMs === undefined || (Number.isFinite(o.slowMs) && o.slowMs >= 0),
    `slowMs must be >= 0, got ${o.slowMs}.`,
  );
  check(
    o.latencyMs === undefined || (Number.isFinite(o.latencyMs) && o.latencyMs >= 0),
    `latencyMs must be >= 0, got ${o.latencyMs}.`,
  );
  check(
    o.bodyTimeoutMs === undefined || (Number.isFinite(o.bodyTimeoutMs) && o.bodyTimeoutMs >= 1),
    `bodyTimeoutMs must be >= 1, got ${o.bodyTimeoutMs}.`,
  );
  check(
    o.legacyAuthHeader === undefined || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(o.legacyAuthHeader),
    `legacyAuthHeader must be an HTTP header name, got "${o.legacyAuthHeader}".`,
  );
  check(o.seed === undefined || Number.isInteger(o.seed), `seed must be a whole number, got ${o.seed}.`);
  for (const key of o.apiKeys ?? []) {
    check(isUsableApiKey(key), 'An API key must be 8 to 512 visible ASCII characters without spaces.');
  }
}

const originOf = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Starts the local service: the service's HTTP API on SQLite, listening on loopback by default.
 * Never reads argv, prints or exits; the `serve` command does that.
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const store = new Store(options.db ?? ':memory:');
  try {
    const keys = new KeyRing(store.users);
    const apiKeys: string[] = [];
    const addUser = (apiKey?: string): string => {
      const key = apiKey ?? generateApiKey();
      check(isUsableApiKey(key), 'An API key must be 8 to 512 visible ASCII characters without spaces.');
      keys.add(key);
      if (!apiKeys.includes(key)) apiKeys.push(key);
      return key;
    };
    for (const key of options.apiKeys ?? []) addUser(key);
    if (apiKeys.length === 0) addUser();

    const faults = new Faults(options);
    const traffic = { inFlight: 0, peak: 0, byRoute: new Map<string, number>() };
    const app = buildApp({
      traffic,
      store,
      keys,
      faults,
      onInternalError: options.onInternalError,
      maxBulk: options.maxBulk ?? LIMITS.maxBulkDefault,
      bodyTimeoutMs: options.bodyTimeoutMs,
      idempotency: options.idempotency,
      rateLimitHeaders: options.rateLimitHeaders ?? true,
      ...(options.legacyAuthHeader ? { legacyAuthHeader: options.legacyAuthHeader } : {}),
    });
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
    const { port } = app.server.address() as AddressInfo;
    let closed: Promise<void> | undefined;
    return {
      url: originOf(host, port),
      apiKeys,
      addUser,
      injectedFaults: () => ({ ...faults.counts }),
      peakInFlight: () => traffic.peak,
      requestCounts: () => Object.fromEntries(traffic.byRoute),
      close: () => {
        closed ??= app.close().finally(() => store.close());
        return closed;
      },
    };
  } catch (error) {
    store.close();
    throw error;
  }
}
