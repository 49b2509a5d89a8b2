import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { assertUsable } from './api-key.js';
import { errorFromMalformedSuccess, errorFromResponse, isRequestError, RequestError } from './errors.js';
import { createTransport, type HttpMethod, type QueryValue } from './http.js';
import { responses } from './responses.js';
import { runWithRetry, type RetryPolicy } from './retry.js';
import type { LocalContact } from '../core/schemas/index.js';
import type { CallOptions, ClientOptions, RequestStats, ServiceClient } from './types.js';

export const CLIENT_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 6,
  minRetryDelayMs: 250,
  maxRetryDelayMs: 30_000,
  concurrency: 4,
} as const;

interface CallSpec<S extends z.ZodType> {
  method: HttpMethod;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The body as JSON text already; wins over `body`. */
  bodyJson?: string;
  headers?: Record<string, string>;
  response: S;
  signal: AbortSignal | undefined;
}

/** The typed client of the service: one method per endpoint, retries, a shared concurrency limit. */
export function createClient(options: ClientOptions): ServiceClient {
  assertUsable(options.apiKey, 'the client options');
  const baseUrl = checkBaseUrl(options.baseUrl);
  const concurrency = positive(options.concurrency, CLIENT_DEFAULTS.concurrency, 'concurrency');
  const timeoutMs = positive(options.timeoutMs, CLIENT_DEFAULTS.timeoutMs, 'timeoutMs');
  const transport = createTransport({
    baseUrl,
    apiKey: options.apiKey,
    timeoutMs,
    concurrency,
    ...(options.pacing !== undefined ? { pacing: options.pacing } : {}),
  });
  const policy: RetryPolicy = {
    retries: nonNegative(options.retries, CLIENT_DEFAULTS.retries, 'retries'),
    minDelayMs: nonNegative(options.minRetryDelayMs, CLIENT_DEFAULTS.minRetryDelayMs, 'minRetryDelayMs'),
    maxDelayMs: nonNegative(options.maxRetryDelayMs, CLIENT_DEFAULTS.maxRetryDelayMs, 'maxRetryDelayMs'),
    ...(options.random ? { random: options.random } : {}),
  };
  const stats: RequestStats = { sent: 0, retried: 0, failed: 0 };

  const combine = (callSignal: AbortSignal | undefined): AbortSignal | undefined => {
    const signals = [options.signal, callSignal].filter((s): s is AbortSignal => s !== undefined);
    if (signals.length <= 1) return signals[0];
    return AbortSignal.any(signals);
  };

  async function call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const ctx = { method: spec.method, path: spec.path, redact: transport.redact };
    // Ids in paths come from callers; a path that somehow holds the key must not carry it out.
    const shownPath = transport.redact(spec.path);
    const signal = combine(spec.signal);
    try {
      return await runWithRetry({
        policy,
        ...(signal ? { signal } : {}),
        abortError: () => transport.abortedError(spec.method, spec.path),
        onRetry: (error, attempt, delayMs) =>
          options.onRetry?.({ method: spec.method, path: shownPath, attempt, error, delayMs }),
        attempt: async (attemptNumber) => {
          const response = await transport.send({
            method: spec.method,
            path: spec.path,
            ...(spec.query ? { query: spec.query } : {}),
            ...(spec.body !== undefined ? { body: spec.body } : {}),
            ...(spec.bodyJson !== undefined ? { bodyJson: spec.bodyJson } : {}),
            ...(spec.headers ? { headers: spec.headers } : {}),
            ...(signal ? { signal } : {}),
            onSent: () => {
              stats.sent += 1;
              if (attemptNumber > 1) stats.retried += 1;
            },
          });
          if (response.status < 200 || response.status > 299) {
            throw errorFromResponse(ctx, response.status, response.headers, response.bodyText);
          }
          let json: unknown;
          try {
            json = JSON.parse(response.bodyText);
          } catch {
            throw errorFromMalformedSuccess(ctx, response.status, { bodyText: response.bodyText });
          }
          const parsed = spec.response.safeParse(json);
          if (!parsed.success) {
            throw errorFromMalformedSuccess(ctx, response.status, {
              bodyText: response.bodyText,
              zodError: parsed.error,
            });
          }
          return parsed.data;
        },
      });
    } catch (error) {
      stats.failed += 1;
      if (isRequestError(error)) throw error;
      // A bug or an unexpected library error: keep the contract (a RequestError, key redacted).
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new RequestError({
        method: spec.method,
        path: shownPath,
        code: 'service_error',
        retryable: false,
        message: transport.redact(`${spec.method} ${spec.path} failed unexpectedly: ${text}`),
      });
    }
  }

  const id = (value: string) => encodeURIComponent(value);
  const sig = (opts: CallOptions | undefined) => opts?.signal;

  return {
    async createContacts(contacts, opts) {
      const result = await call({
        method: 'POST',
        path: '/v1/contacts/',
        ...(opts?.bodyJson !== undefined ? { bodyJson: opts.bodyJson } : { body: { contacts } }),
        headers: { 'idempotency-key': opts?.idempotencyKey ?? randomUUID() },
        response: responses.createContacts,
        signal: sig(opts),
      });
      return result.data.contacts;
    },
    async bulkUpdateContacts(elements, opts) {
      const result = await call({
        method: 'PUT',
        path: '/v1/contacts/',
        body: elements,
        response: responses.bulkUpdate,
        signal: sig(opts),
      });
      return { count: result.data.count };
    },
    async updateContact(contactId, data, opts) {
      const result = await call({
        method: 'PUT',
        path: `/v1/contacts/${id(contactId)}`,
        body: data,
        response: responses.contact,
        signal: sig(opts),
      });
      return result.data.contact;
    },
    async searchContacts(query, opts) {
      const result = await call({
        method: 'GET',
        path: '/v1/contacts/search',
        query: { ...query },
        response: responses.search,
        signal: sig(opts),
      });
      const { contacts, nextCursor } = result.data;
      return nextCursor !== undefined ? { contacts, nextCursor } : { contacts };
    },
    async globalSearch(query, opts) {
      const result = await call({
        method: 'GET',
        path: '/v1/search/contacts',
        query: { ...query },
        response: responses.globalSearch,
        signal: sig(opts),
      });
      return result.nextCursor !== undefined
        ? { contacts: result.data, nextCursor: result.nextCursor }
        : { contacts: result.data };
    },
    async createReminder(reminder, opts) {
      const result = await call({
        method: 'POST',
        path: '/v1/reminders/',
        body: { reminder },
        headers: { 'idempotency-key': opts?.idempotencyKey ?? randomUUID() },
        response: responses.reminder,
        signal: sig(opts),
      });
      return result.data.reminder;
    },
    async updateReminder(reminderId, reminder, opts) {
      const result = await call({
        method: 'PUT',
        path: `/v1/reminders/${id(reminderId)}`,
        body: { reminder },
        response: responses.reminder,
        signal: sig(opts),
      });
      return result.data.reminder;
    },
    async createGroup(group, opts) {
      const result = await call({
        method: 'POST',
        path: '/v1/groups/',
        body: { group },
        headers: { 'idempotency-key': opts?.idempotencyKey ?? randomUUID() },
        response: responses.group,
        signal: sig(opts),
      });
      return result.data.group;
    },
    async updateGroup(groupId, group, opts) {
      const result = await call({
        method: 'PUT',
        path: `/v1/groups/${id(groupId)}`,
        body: { group },
        response: responses.group,
        signal: sig(opts),
      });
      return result.data.group;
    },
    async createCustomField(customField, opts) {
      const result = await call({
        method: 'POST',
        path: '/v1/custom-fields/',
        body: { custom_field: customField },
        headers: { 'idempotency-key': opts?.idempotencyKey ?? randomUUID() },
        response: responses.customField,
        signal: sig(opts),
      });
      return result.data.custom_field;
    },
    async updateCustomField(fieldId, customField, opts) {
      const result = await call({
        method: 'PUT',
        path: `/v1/custom-fields/${id(fieldId)}`,
        body: { custom_field: customField },
        response: responses.customField,
        signal: sig(opts),
      });
      return result.data.custom_field;
    },
    async legacyUpdateContact(contactId, body, opts) {
      const result = await call({
        method: 'PUT',
        path: `/api/rest/contacts/${id(contactId)}`,
        body,
        response: responses.contact,
        signal: sig(opts),
      });
      return result.data.contact;
    },
    local: {
      async contacts(opts) {
        // `/_local/contacts` pages like E3; read every page so callers see everything stored.
        const all: LocalContact[] = [];
        let cursor: string | undefined;
        do {
          const result = await call({
            method: 'GET',
            path: '/_local/contacts',
            ...(cursor !== undefined ? { query: { cursor } } : {}),
            response: responses.localContacts,
            signal: sig(opts),
          });
          all.push(...result.data.contacts);
          cursor = result.data.nextCursor;
        } while (cursor !== undefined);
        return all;
      },
      async contact(contactId, opts) {
        const path = `/_local/contacts/${id(contactId)}`;
        return (await call({ method: 'GET', path, response: responses.localContact, signal: sig(opts) })).data
          .contact;
      },
      async groups(opts) {
        return (
          await call({
            method: 'GET',
            path: '/_local/groups',
            response: responses.localGroups,
            signal: sig(opts),
          })
        ).data.groups;
      },
      async customFields(opts) {
        const path = '/_local/custom-fields';
        return (await call({ method: 'GET', path, response: responses.localCustomFields, signal: sig(opts) }))
          .data.custom_fields;
      },
      async reminders(opts) {
        const path = '/_local/reminders';
        return (await call({ method: 'GET', path, response: responses.localReminders, signal: sig(opts) }))
          .data.reminders;
      },
    },
    stats: () => ({ ...stats }),
    close: () => transport.close(),
  };
}

function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `Client baseUrl ${JSON.stringify(baseUrl)} is not a URL; expected an origin like http://127.0.0.1:8787.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(
      `Client baseUrl ${JSON.stringify(baseUrl)} has protocol ${url.protocol}; expected http: or https:.`,
    );
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 1)
    throw new TypeError(`Client option ${name} is ${value}; expected a number >= 1.`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new TypeError(`Client option ${name} is ${value}; expected a whole number >= 0.`);
  return value;
}
