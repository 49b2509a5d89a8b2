import type { IncomingHttpHeaders } from 'node:http';
import type { AnnouncedLimit } from './pacing.js';

/**
 * The limit an answer's headers announce, if any: the IETF draft's `RateLimit-Policy` (`q` requests
 * per `w` seconds; an older draft's bare number with `w`), else `X-RateLimit-Limit` over the
 * window `X-RateLimit-Reset` shows (epoch seconds when it looks like a date, else seconds from
 * now, rounded up to whole seconds): that family names no window, and the time to the reset is
 * the shortest it can be. Of several policies, the strictest. `Remaining` is not read: answers
 * come back out of order, and the pace keeps within the limit without it.
 */
export const announcedLimit = (
  headers: IncomingHttpHeaders,
  nowMs: number = Date.now(),
): AnnouncedLimit | undefined => policyLimit(headers['ratelimit-policy']) ?? xLimit(headers, nowMs);

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/** `"default";q=5;w=1, "daily";q=1000;w=86400` (or `5;w=1`): the lowest rate among the items. */
const policyLimit = (header: string | string[] | undefined): AnnouncedLimit | undefined => {
  const text = first(header);
  if (text === undefined) return undefined;
  let strictest: AnnouncedLimit | undefined;
  for (const item of text.split(',')) {
    const [head = '', ...params] = item.split(';').map((part) => part.trim());
    const values = new Map(
      params.map((p) => {
        const at = p.indexOf('=');
        return at === -1 ? ([p, ''] as const) : ([p.slice(0, at).trim(), p.slice(at + 1).trim()] as const);
      }),
    );
    const count = Number(values.get('q') ?? (/^\d+$/.test(head) ? head : NaN));
    const seconds = Number(values.get('w'));
    if (!(Number.isInteger(count) && count >= 1 && Number.isFinite(seconds) && seconds > 0)) continue;
    const limit = { count, windowMs: seconds * 1000 };
    if (!strictest || count / limit.windowMs < strictest.count / strictest.windowMs) strictest = limit;
  }
  return strictest;
};

/** Past this, an `X-RateLimit-Reset` is a date (epoch seconds), not a number of seconds. */
const EPOCH_SECONDS = 1e9;

const xLimit = (headers: IncomingHttpHeaders, nowMs: number): AnnouncedLimit | undefined => {
  const count = Number(first(headers['x-ratelimit-limit']));
  const reset = Number(first(headers['x-ratelimit-reset']));
  if (!(Number.isInteger(count) && count >= 1 && Number.isFinite(reset) && reset >= 0)) return undefined;
  const untilMs = reset > EPOCH_SECONDS ? reset * 1000 - nowMs : reset * 1000;
  return { count, windowMs: Math.max(1, Math.ceil(untilMs / 1000)) * 1000 };
};
