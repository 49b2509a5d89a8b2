import { request } from 'undici';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../../src/server/index.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // The tests read envelopes of many shapes; each asserts the fields it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Sent verbatim instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  /** API key; `null` sends no Authorization header. Defaults to the service's first key. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** Raw HTTP against a running local service, no client library in between. */
export function caller(service: Pick<LocalService, 'url' | 'apiKeys'>) {
  return async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: CallOptions = {},
  ): Promise<Answer> => {
    const key = options.key === undefined ? service.apiKeys[0] : options.key;
    const headers: Record<string, string> = {};
    if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`;
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);
    const res = await request(`${service.url}${path}`, { method, headers, body });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, json, text };
  };
}

export const startTestService = (options: LocalServiceOptions = {}): Promise<LocalService> =>
  startLocalService({
    port: 0,
    onInternalError: (error) => {
      // A 500 is always a bug here; make it loud in the test output.
      console.error('local service internal error', error);
    },
    ...options,
  });

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
