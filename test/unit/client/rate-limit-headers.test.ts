import { describe, expect, it } from 'vitest';
import { announcedLimit } from '../../../src/client/rate-limit-headers.js';

describe('the limit an answer announces', () => {
  it('reads the IETF draft policy, the strictest of several, and an older draft bare number', () => {
    expect(announcedLimit({ 'ratelimit-policy': '"default";q=5;w=1' })).toEqual({ count: 5, windowMs: 1000 });
    expect(announcedLimit({ 'ratelimit-policy': '"burst";q=100;w=60, "day";q=1000;w=86400' })).toEqual({
      count: 1000,
      windowMs: 86_400_000,
    });
    expect(announcedLimit({ 'ratelimit-policy': '10;w=2' })).toEqual({ count: 10, windowMs: 2000 });
    // No window: nothing to pace by.
    expect(announcedLimit({ 'ratelimit-policy': '"default";q=5' })).toBeUndefined();
  });

  it('reads X-RateLimit-Limit over the time to X-RateLimit-Reset, a date or a number of seconds', () => {
    const now = 1_800_000_000_400;
    expect(announcedLimit({ 'x-ratelimit-limit': '5', 'x-ratelimit-reset': '1800000001' }, now)).toEqual({
      count: 5,
      windowMs: 1000,
    });
    expect(announcedLimit({ 'x-ratelimit-limit': '5000', 'x-ratelimit-reset': '3599' }, now)).toEqual({
      count: 5000,
      windowMs: 3_599_000,
    });
    expect(announcedLimit({ 'x-ratelimit-limit': '5' }, now)).toBeUndefined();
    expect(announcedLimit({}, now)).toBeUndefined();
  });
});
