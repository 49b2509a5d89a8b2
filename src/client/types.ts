import type {
  ContactJson,
  ContactResponse,
  ContactWrite,
  CustomFieldCreate,
  CustomFieldResponse,
  CustomFieldUpdate,
  GroupCreate,
  GroupResponse,
  GroupUpdate,
  LegacyUpdateBody,
  ReminderCreate,
  ReminderResponse,
  ReminderUpdate,
} from '../core/schemas/index.js';
import type { BulkUpdateInput } from './bodies.js';
import type { RequestError } from './errors.js';
import type { PacingOptions } from './pacing.js';
import type { RequestStats } from './stats.js';

export interface RetryEvent {
  method: string;
  /** Request path without the query string. */
  path: string;
  /** The attempt that failed (1-based); the retry is attempt + 1. */
  attempt: number;
  error: RequestError;
  /** How long the client waits before the retry (backoff with jitter, at least `Retry-After`). */
  delayMs: number;
}

/** The client is about to wait for the target a second or more (the run says so while it waits). */
export interface WaitEvent {
  /**
   * `retry-after`: before another attempt, as long as the target's `Retry-After` asked; `backoff`:
   * before another attempt, the client's own delay; `pace`: at the pace or gate all requests share.
   */
  reason: 'retry-after' | 'backoff' | 'pace';
  delayMs: number;
  /** When the wait ends, on the wall clock (ISO 8601, UTC). */
  until: string;
}

export interface ClientOptions {
  /**
   * Origin of the target (any path prefix kept): v1 at `${baseUrl}/v1`, E11 at
   * `${baseUrl}/api/rest`. A trailing `/` or `/v1` is dropped; see parseTargetUrl.
   */
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, named when the target refuses it (401), e.g. `CONTACT_IMPORT_API_KEY`. */
  keySource?: string;
  /**
   * Per attempt, from sending to the last byte of the answer, plus `timeoutPerMbMs` per MB of the
   * request body. Default 30 000. When given, also the start probe's (unless `probeTimeoutMs` is).
   */
  timeoutMs?: number;
  /** Added to a request's timeout per megabyte of its body. Default 10 000. */
  timeoutPerMbMs?: number;
  /** The start probe's timeout (`probe()`). Default 10 000, or `timeoutMs` when that is given. */
  probeTimeoutMs?: number;
  /** Opening a connection: DNS, TCP and TLS. Default 5 000. */
  connectTimeoutMs?: number;
  /** Longest answer body read; a longer one fails as `response_too_large`, not retried. Default 64 MB. */
  maxResponseBytes?: number;
  /** Retries after the first attempt. Default 6. */
  retries?: number;
  /** Default 250. */
  minRetryDelayMs?: number;
  /** Default 30 000; a longer `Retry-After` still wins. */
  maxRetryDelayMs?: number;
  /**
   * The longest the client waits for the target: a `Retry-After` or a pace wait longer than this
   * fails the call with `target_busy`, saying when the target takes requests again. Default 300 000.
   */
  maxWaitMs?: number;
  /** Requests in flight at once across all calls. Default 4. */
  concurrency?: number;
  /** Cancels everything, in flight, waiting for a retry, and queued. */
  signal?: AbortSignal;
  /**
   * Ends every wait at once (before a retry, at the pace or gate): the waiting call fails as
   * `aborted`. Requests already sent are not cut, and one that needs no wait still goes: a
   * graceful stop.
   */
  stopWaiting?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
  /** Before each wait of a second or more. */
  onWait?: (event: WaitEvent) => void;
  /** Jitter source in [0, 1); tests pin it. Default Math.random. */
  random?: () => number;
  /**
   * After a 429, no attempt of this client starts before its `Retry-After` has passed, and attempts
   * are spaced to stay just under the rate the 429 revealed. `false` turns this off. Default on.
   */
  pacing?: PacingOptions | false;
  /**
   * E11's `{legacy_base_url}` (`--legacy-target`; default `baseUrl`) and the header that carries
   * the key there instead of `Authorization: Bearer` (`--legacy-auth-header`).
   */
  legacy?: { baseUrl?: string; authHeader?: string };
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface CreateCallOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` on every attempt of this call. When absent the client makes one per
   * call, so its own retries never create twice; pass one to survive a crash between runs.
   */
  idempotencyKey?: string;
  /**
   * Called once, synchronously, when the first attempt is handed to the network (not when the
   * call is queued for a connection): a journal written here names only requests that left. What
   * it throws stops the call before anything is sent, and the call rejects with it.
   */
  onSent?: () => void;
  /** The target answered `Idempotent-Replayed: true`: it honours `Idempotency-Key`. */
  onReplayed?: () => void;
}

export interface CreateContactsOptions extends CreateCallOptions {
  /**
   * The request body when the caller already joined it (the loader records it in the ledger
   * before sending, so it is not joined twice): `createContactsBody(contacts)`, sent byte for byte.
   */
  bodyJson?: string;
}

/** E3 query; `take` 1 to `LIMITS.takeMax` on the local service. */
export interface SearchContactsParams {
  fullName?: string;
  take?: number;
  cursor?: string;
}

/** E4 query. */
export interface GlobalSearchParams {
  searchQuery?: string;
  archived?: boolean;
  minimal?: boolean;
  exactMatch?: boolean;
  enhanced?: boolean;
  take?: number;
  cursor?: string;
  has_groups?: boolean;
}

export interface ContactPage {
  contacts: ContactResponse[];
  /** Absent on the last page. */
  nextCursor?: string;
}

export interface ServiceClient {
  /**
   * `POST /v1/contacts/`: created contacts in request order. A contact given as its JSON text is
   * placed in the body byte for byte (client/bodies.ts).
   */
  createContacts(
    contacts: readonly (ContactWrite | ContactJson)[],
    opts?: CreateContactsOptions,
  ): Promise<ContactResponse[]>;
  /**
   * E1: `count` is the number updated; unknown ids are skipped, so it can be lower. A `data` given
   * as JSON text is placed in the body byte for byte.
   */
  bulkUpdateContacts(elements: readonly BulkUpdateInput[], opts?: CallOptions): Promise<{ count: number }>;
  /** E2 */
  updateContact(id: string, data: ContactWrite, opts?: CallOptions): Promise<ContactResponse>;
  /** E3 */
  searchContacts(query: SearchContactsParams, opts?: CallOptions): Promise<ContactPage>;
  /** E4 */
  globalSearch(query: GlobalSearchParams, opts?: CallOptions): Promise<ContactPage>;
  /** E5 */
  createReminder(reminder: ReminderCreate, opts?: CreateCallOptions): Promise<ReminderResponse>;
  /** E6 */
  updateReminder(id: string, reminder: ReminderUpdate, opts?: CallOptions): Promise<ReminderResponse>;
  /** E7 */
  createGroup(group: GroupCreate, opts?: CreateCallOptions): Promise<GroupResponse>;
  /** E8 */
  updateGroup(id: string, group: GroupUpdate, opts?: CallOptions): Promise<GroupResponse>;
  /** E9 */
  createCustomField(customField: CustomFieldCreate, opts?: CreateCallOptions): Promise<CustomFieldResponse>;
  /** E10 */
  updateCustomField(
    id: string,
    customField: CustomFieldUpdate,
    opts?: CallOptions,
  ): Promise<CustomFieldResponse>;
  /** E11, the older form: answers like E2. */
  legacyUpdateContact(id: string, body: LegacyUpdateBody, opts?: CallOptions): Promise<ContactResponse>;
  /**
   * The start probe: one E4 search for a single contact, archived included, within the probe
   * timeout. A connection that cannot be opened or a timeout fails at once, not after retries.
   */
  probe(opts?: CallOptions): Promise<{ holdsContacts: boolean }>;
  /**
   * createContacts, except that an answer lost after the request left (reset, cut, timeout) is
   * final instead of retried: on a target that ignores `Idempotency-Key` a blind resend could store
   * the people twice, so the caller looks them up first (src/load/lost-creates.ts).
   */
  createContactsLossFinal(
    contacts: readonly (ContactWrite | ContactJson)[],
    opts?: CreateContactsOptions,
  ): Promise<ContactResponse[]>;
  /** Requests sent, retried and failed, in total and by endpoint. */
  stats(): RequestStats;
  /** Closes the keep-alive agent; queued requests fail as aborted. */
  close(): Promise<void>;
}
