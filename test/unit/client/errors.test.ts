import { describe, expect, it } from 'vitest';
import { parseRetryAfter, RETRYABLE_STATUSES } from '../../../src/client/index.js';
import {
  errorFromLongWait,
  errorFromMalformedSuccess,
  errorFromResponse,
  errorFromTransport,
} from '../../../src/client/errors.js';
import { redact } from '../../../src/client/redact.js';
import { contactResponseSchema } from '../../../src/core/schemas/index.js';

const key = 'test-key-7f3a9c';
const ctx = { method: 'PUT', path: '/v1/contacts/', redact: (text: string) => redact(text, [key]) };
const envelope = (code: string, message: string, details: unknown[] = []) =>
  JSON.stringify({ error: true, data: { code, message, details } });

describe('errorFromResponse', () => {
  it('retries exactly 429, 500, 502, 503 and 504', () => {
    const statuses = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 501, 502, 503, 504, 505];
    const retryable = statuses.filter((status) => errorFromResponse(ctx, status, {}, '').retryable);
    expect(retryable).toEqual([429, 500, 502, 503, 504]);
    expect([...RETRYABLE_STATUSES].sort()).toEqual([429, 500, 502, 503, 504]);
  });

  it("keeps the service's code, message and details, and names them in the message", () => {
    const details = [{ path: 'website', message: 'Too long: expected at most 2083 characters', index: 3 }];
    const error = errorFromResponse(
      ctx,
      400,
      {},
      envelope('invalid_body', 'The request body is not valid.', details),
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_body',
      retryable: false,
      method: 'PUT',
      path: '/v1/contacts/',
    });
    expect(error.details).toEqual(details);
    expect(error.message).toContain('HTTP 400 invalid_body');
    expect(error.message).toContain('[3] website: Too long');
  });

  it('reads Retry-After only on 429', () => {
    const rateLimited = errorFromResponse(
      ctx,
      429,
      { 'retry-after': '2' },
      envelope('rate_limited', 'Too many'),
    );
    expect(rateLimited.retryAfterMs).toBe(2000);
    expect(rateLimited.retryable).toBe(true);
    expect(errorFromResponse(ctx, 503, { 'retry-after': '2' }, '').retryAfterMs).toBeUndefined();
  });

  it('falls back to a status code when the body is not the error envelope', () => {
    const html = errorFromResponse(ctx, 502, {}, '<html>Bad gateway</html>');
    expect(html).toMatchObject({ code: 'service_error', retryable: true, status: 502 });
    expect(html.message).toContain('<html>Bad gateway');
    expect(errorFromResponse(ctx, 401, {}, '').code).toBe('unauthorized');
    expect(errorFromResponse(ctx, 404, {}, 'Not Found').code).toBe('not_found');
  });

  it('redacts the key when a body echoes it', () => {
    const echoed = envelope('unauthorized', `unknown key ${key}`, [
      { path: 'authorization', message: `Bearer ${key}` },
    ]);
    const error = errorFromResponse(ctx, 401, {}, echoed);
    expect(error.message).not.toContain(key);
    expect(JSON.stringify(error.details)).not.toContain(key);
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and ignores junk', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(['4', '9'], now)).toBe(4000);
  });
});

describe('errorFromMalformedSuccess and errorFromTransport', () => {
  it('makes a wrong-shaped success a final service_error naming the field', () => {
    const parsed = contactResponseSchema.safeParse({ id: 'not-a-uuid' });
    expect(parsed.success).toBe(false);
    const error = errorFromMalformedSuccess(ctx, 200, {
      bodyText: '{}',
      ...(parsed.error ? { zodError: parsed.error } : {}),
    });
    expect(error).toMatchObject({ code: 'service_error', retryable: false, status: 200 });
    expect(error.message).toContain('id:');
    const notJson = errorFromMalformedSuccess(ctx, 200, { bodyText: 'hello' });
    expect(notJson.message).toContain('not JSON');
  });

  it('classifies timeouts and network failures as retryable, aborts as final', () => {
    expect(errorFromTransport(ctx, 'timeout', new Error('x'), 1234)).toMatchObject({
      code: 'request_timeout',
      retryable: true,
    });
    expect(errorFromTransport(ctx, 'timeout', new Error('x'), 1234).message).toContain('within 1.2 s');
    const network = errorFromTransport(
      ctx,
      'network',
      Object.assign(new Error(`connect ECONNREFUSED ${key}`), { code: 'ECONNREFUSED' }),
      1,
    );
    expect(network).toMatchObject({ code: 'target_unreachable', retryable: true });
    expect(network.message).toContain('ECONNREFUSED');
    expect(network.message).not.toContain(key);
    expect(errorFromTransport(ctx, 'aborted', undefined, 1)).toMatchObject({
      code: 'aborted',
      retryable: false,
    });
  });
});

describe('answers that say the target is not the service', () => {
  it('a redirect says so and where to, without credentials or query', () => {
    const error = errorFromResponse(
      ctx,
      301,
      { location: `https://admin:${key}@api.example.com/v1/contacts/?token=${key}` },
      '<html>Moved</html>',
    );
    expect(error.message).toContain('a redirect to https://api.example.com/v1/contacts/?...');
    expect(error.message).toContain('does not follow');
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('admin');
    expect(error.message).not.toContain("not the service's error envelope");
    expect(error.retryable).toBe(false);
    expect(errorFromResponse(ctx, 302, { location: '/login?next=x' }, '').message).toContain(
      'a redirect to /login?...',
    );
  });

  it('a 404 of a route without an id names the endpoint the target lacks', () => {
    const error = errorFromResponse(ctx, 404, {}, 'Not Found', 'E7 `POST /v1/groups/`');
    expect(error.message).toContain('the target has no E7 `POST /v1/groups/`');
    expect(error.message).toContain('is it the Contact Relationship Service, and which version?');
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    // Without the endpoint's name (an id route: the object is what is missing) it stays as it was.
    expect(errorFromResponse(ctx, 404, {}, envelope('not_found', 'No such contact.')).message).not.toContain(
      'the target has no',
    );
  });

  it('a wait past the longest allowed says when the target takes requests again', () => {
    const cause = errorFromResponse(ctx, 429, { 'retry-after': '86400' }, '');
    const error = errorFromLongWait(ctx, {
      ms: 86_400_000,
      until: '2030-01-02T00:00:00Z',
      maxMs: 300_000,
      cause,
    });
    expect(error).toMatchObject({ code: 'target_busy', status: 429, retryable: false });
    expect(error.message).toContain('takes requests again at 2030-01-02T00:00:00Z (in 24 h)');
    expect(error.message).toContain('longest wait allowed (300 s)');
  });
});

describe('parseRetryAfter: HTTP dates in all three forms', () => {
  const now = Date.parse('1994-11-06T08:49:30Z');
  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])(
    '%s',
    (value) => expect(parseRetryAfter(value, now)).toBe(7000),
  );
});
