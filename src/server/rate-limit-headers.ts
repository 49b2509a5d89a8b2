import type { RateQuota } from './faults.js';

/**
 * A `--rate-limit` announced in both header families clients read: the IETF draft's
 * (`RateLimit-Policy: "default";q=5;w=1` and `RateLimit: "default";r=2;t=1`, `t` in whole seconds
 * rounded up) and the older `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds of the
 * window's end, as GitHub sends it). The window is one second of the clock.
 */
export const rateLimitHeaders = (quota: RateQuota): Record<string, string> => ({
  'ratelimit-policy': `"default";q=${quota.limit};w=1`,
  ratelimit: `"default";r=${quota.remaining};t=${Math.max(0, Math.ceil((quota.resetAtMs - quota.now) / 1000))}`,
  'x-ratelimit-limit': String(quota.limit),
  'x-ratelimit-remaining': String(quota.remaining),
  'x-ratelimit-reset': String(Math.ceil(quota.resetAtMs / 1000)),
});
