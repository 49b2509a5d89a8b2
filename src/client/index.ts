export { createClient, clientOn } from './client.js';
export { createCaller, type Caller, type CallPolicy } from './caller.js';
export { CLIENT_DEFAULTS } from './options.js';
export {
  bindEndpoints,
  type BoundEndpoints,
  defineEndpoint,
  endpointKey,
  type AnyEndpoint,
  type Endpoint,
  type RequestParts,
  type RetryClass,
} from './endpoint.js';
export { API_ENDPOINTS, answers } from './endpoints.js';
export { bulkUpdateBody, bulkUpdateElementJson, createContactsBody, type BulkUpdateInput } from './bodies.js';
export { answerLost, RequestError, isRequestError, parseRetryAfter, RETRYABLE_STATUSES } from './errors.js';
export { resolveApiKey, API_KEY_ENV, type ResolveApiKeyOptions } from './api-key.js';
export { isLoopbackUrl, parseTargetUrl, targetLabel, type TargetUrl } from './target-url.js';
export { redact, createRedactor, REDACTED, MIN_SECRET_REPLACED_ANYWHERE } from './redact.js';
export { computeRetryDelay, type RetryPolicy } from './retry.js';
export { MAX_TIMER_MS, wait } from './wait.js';
export {
  createPacer,
  LongWait,
  type AttemptOutcome,
  type PacedStart,
  type Pacer,
  type PacingOptions,
} from './pacing.js';
export type { EndpointStats, RequestStats } from './stats.js';
export type {
  CallOptions,
  ClientOptions,
  ContactPage,
  CreateCallOptions,
  CreateContactsOptions,
  GlobalSearchParams,
  RetryEvent,
  SearchContactsParams,
  WaitEvent,
  ServiceClient,
} from './types.js';
