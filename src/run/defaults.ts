import { CLIENT_DEFAULTS } from '../client/options.js';
import { LIMITS } from '../core/schemas/limits.js';

/**
 * The run's defaults, in one place: the settings schema (options.ts) applies them, the command
 * line's help text says them, and the command line sets none of its own. Light on purpose (no
 * normalizer, no reader), so `--help` loads it at once.
 */
export const RUN_DEFAULTS = Object.freeze({
  dryRun: false,
  stateDir: '.contact-import',
  /** Contacts per bulk request. */
  chunkSize: 100,
  /**
   * Requests in flight. The client enforces it (its request limit, with as many connections);
   * the load stage only prepares that many chunks ahead (load/index.ts).
   */
  concurrency: CLIENT_DEFAULTS.concurrency,
  /**
   * docs/design.md "Request size": under the local service's 5 MB (5 MiB) and under a remote target's
   * 5 MB (5,000,000 bytes) with room for headers and our arithmetic.
   */
  maxBodyBytes: 4_900_000,
  match: 'email' as 'email' | 'none',
  /** As typed: a count, or a percentage such as `5%`. */
  maxRejects: '0',
  strict: false,
  reread: false,
  /** Seconds: the longest wait for the target (`Retry-After`, pacing); a longer one stops the run. */
  maxWait: CLIENT_DEFAULTS.maxWaitMs / 1000,
  /** Duplicate candidates: the same person under another e-mail (src/candidates/). */
  candidates: 'on' as 'on' | 'off',
});

/** The bounds of the number settings, checked by the schema and, as typed, by the command line. */
export const RUN_BOUNDS = Object.freeze({
  chunkSize: { min: 1, max: LIMITS.maxBulkDefault },
  concurrency: { min: 1, max: 64 },
  /** Seconds. */
  timeout: { max: 3600 },
  maxBodyBytes: { min: 64 * 1024, max: 1024 * 1024 * 1024 },
  /** Seconds; a week at most. */
  maxWait: { min: 1, max: 7 * 24 * 3600 },
});

/** Request timeouts the client applies unless `--timeout` is given, in seconds, for help text. */
export const TIMEOUT_DEFAULTS = Object.freeze({
  request: CLIENT_DEFAULTS.timeoutMs / 1000,
  perMb: CLIENT_DEFAULTS.timeoutPerMbMs / 1000,
  probe: CLIENT_DEFAULTS.probeTimeoutMs / 1000,
});
