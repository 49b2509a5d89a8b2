export { createClient, CLIENT_DEFAULTS } from './client.js';
export { RequestError, isRequestError, parseRetryAfter, RETRYABLE_STATUSES } from './errors.js';
export { resolveApiKey, API_KEY_ENV, type ResolveApiKeyOptions } from './api-key.js';
export { redact, REDACTED } from './redact.js';
export { computeRetryDelay, type RetryPolicy } from './retry.js';
export {
  createPacer,
  type AttemptOutcome,
  type PacedStart,
  type Pacer,
  type PacingOptions,
} from './pacing.js';
export type {
  CallOptions,
  ClientOptions,
  ContactPage,
  CreateCallOptions,
  CreateContactsOptions,
  GlobalSearchParams,
  LocalCustomField,
  LocalGroup,
  LocalInspection,
  LocalReminder,
  RequestStats,
  RetryEvent,
  SearchContactsParams,
  ServiceClient,
} from './types.js';
export type { LocalContact } from '../core/schemas/index.js';
