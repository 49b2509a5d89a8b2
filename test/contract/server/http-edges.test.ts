import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/core/schemas/limits.js';
import type { LocalService } from '../../../src/server/index.js';
import { UNKNOWN_ID, caller, startTestService } from './http.js';
import { chunkedBody, rawExchange } from './raw-http.js';

let service: LocalService;
let call: ReturnType<typeof caller>;
let key: string;
beforeAll(async () => {
  // The default body timeout: a 6 MB body sent on a loaded machine must meet the 413, not a 408.
  service = await startTestService();
  call = caller(service);
  key = service.apiKeys[0] as string;
});
afterAll(() => service.close());

const envelope = (code: string) => ({ error: true, data: expect.objectContaining({ code }) });
const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const postHead = (extra: string[]) =>
  head([
    'POST /v1/contacts/ HTTP/1.1',
    'Host: local',
    `Authorization: Bearer ${key}`,
    'Content-Type: application/json',
    ...extra,
  ]);

describe('authentication comes before routing, for every path', () => {
  const longId = 'a'.repeat(150);
  it.each([
    ['PUT', `/v1/contacts/${longId}`],
    ['GET', `/_local/contacts/${longId}`],
    ['PUT', '/v1/contacts/%E0%A4%A'],
    ['GET', '/no/such/route'],
    ['DELETE', '/v1/contacts/'],
    ['GET', '/'],
  ] as const)('%s %s without a key: 401 in the envelope', async (method, path) => {
    const answer = await call(method, path, { key: null });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual(envelope('unauthorized'));
  });

  it('with a key: unknown routes 404, a path id over 100 characters 414, a bad encoding 400, all in the envelope', async () => {
    const unknown = await call('GET', '/no/such/route');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(envelope('not_found'));
    const long = await call('PUT', `/v1/contacts/${longId}`, { body: { job_title: 'x' } });
    expect(long.status).toBe(414);
    expect(long.json).toEqual(envelope('invalid_path'));
    const badEncoding = await call('PUT', '/v1/contacts/%E0%A4%A', { body: {} });
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.json).toEqual(envelope('invalid_path'));
  });
});

describe("fastify's and Node's own errors are in the envelope", () => {
  it.each([
    ['bad JSON', { raw: '{"contacts": [' }, 400, 'invalid_json'],
    ['an empty body', { raw: '' }, 400, 'invalid_json'],
    ['text/plain', { raw: 'x', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
    ['a declared 6 MB body', { raw: Buffer.alloc(6 * 1024 * 1024, 0x20) }, 413, 'payload_too_large'],
  ] as const)('%s', async (_label, options, status, code) => {
    const answer = await call('POST', '/v1/contacts/', options);
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual(envelope(code));
  });

  it('a request line Node cannot parse: 400, and headers over 16 KB: 431', async () => {
    const garbage = await rawExchange(service.url, 'NOT AN HTTP REQUEST\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect('json' in garbage && garbage.json).toEqual(envelope('bad_request'));
    const huge = await rawExchange(
      service.url,
      head(['GET /_local/contacts HTTP/1.1', 'Host: local', `X-Big: ${'b'.repeat(20_000)}`]),
    );
    expect(huge.status).toBe(431);
    expect('json' in huge && huge.json).toEqual(envelope('bad_request'));
  });
});

describe('413 for any body over the limit, heard by the client', () => {
  const sixteenMb = () => chunkedBody(256, 64 * 1024);

  it('a chunked body over 5 MB through undici: 413 in the envelope', async () => {
    const answer = await request(`${service.url}/v1/contacts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: Readable.from(Array.from({ length: 160 }, () => Buffer.alloc(64 * 1024, 0x20))),
    });
    expect(answer.statusCode).toBe(413);
    expect(await answer.body.json()).toEqual(envelope('payload_too_large'));
  });

  it('a client that writes a whole 16 MB chunked body before reading still gets the 413', async () => {
    const answer = await rawExchange(service.url, postHead(['Transfer-Encoding: chunked']), sixteenMb());
    expect(answer.status).toBe(413);
    expect('json' in answer && answer.json).toEqual(envelope('payload_too_large'));
    expect('headers' in answer && answer.headers.connection).toBe('close');
  });

  it('the same for a declared length over the limit, and the service goes on serving', async () => {
    const size = LIMITS.maxBodyBytes + 1024;
    const answer = await rawExchange(service.url, postHead([`Content-Length: ${size}`]), [
      Buffer.alloc(size, 0x20),
    ]);
    expect(answer.status).toBe(413);
    expect((await call('GET', '/_local/contacts')).status).toBe(200);
  });

  it('a body refused before it is read (bad key) is answered 401, not dropped', async () => {
    const badKey = head([
      'POST /v1/contacts/ HTTP/1.1',
      'Host: local',
      'Authorization: Bearer wrong-key-000',
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
    ]);
    const answer = await rawExchange(service.url, badKey, chunkedBody(64, 64 * 1024));
    expect(answer.status).toBe(401);
    expect('json' in answer && answer.json).toEqual(envelope('unauthorized'));
  });
});

describe('a body timeout (here 400 ms; 30 s by default)', () => {
  let impatient: LocalService;
  beforeAll(async () => {
    impatient = await startTestService({ bodyTimeoutMs: 400 });
  });
  afterAll(() => impatient.close());
  const impatientHead = (extra: string[]) =>
    head([
      'POST /v1/contacts/ HTTP/1.1',
      'Host: local',
      `Authorization: Bearer ${impatient.apiKeys[0]}`,
      'Content-Type: application/json',
      ...extra,
    ]);

  it('answers a stalled body 408 in the envelope and closes', async () => {
    const answer = await rawExchange(
      impatient.url,
      impatientHead(['Content-Length: 100']),
      ['{"contacts":'],
      {
        keepOpen: true,
      },
    );
    expect(answer.status).toBe(408);
    expect('json' in answer && answer.json).toEqual(envelope('body_timeout'));
  });

  it('times a trickling body as a whole, not per pause', async () => {
    // A valid body, one byte every 50 ms for 2 s: never idle for 400 ms, but slower than that in all.
    const body = `${JSON.stringify({ contacts: [{ full_name: 'Trickle' }] })}${' '.repeat(4)}`;
    const answer = await rawExchange(
      impatient.url,
      impatientHead([`Content-Length: ${body.length}`]),
      [...body],
      {
        pauseMs: 50,
        keepOpen: true,
      },
    );
    expect(answer.status).toBe(408);
    expect((await caller(impatient)('GET', '/v1/search/contacts?searchQuery=Trickle')).json.data).toEqual([]);
  });

  it('takes a body slower than that under the default timeout', async () => {
    const body = JSON.stringify({ contacts: [{ full_name: 'Slow Sender' }] });
    const answer = await rawExchange(
      service.url,
      postHead([`Content-Length: ${body.length}`, 'Connection: close']),
      [body.slice(0, 10), body.slice(10)],
      { pauseMs: 700 },
    );
    expect(answer.status).toBe(200);
    expect('json' in answer && answer.json.data.contacts[0].full_name).toBe('Slow Sender');
  });
});

it('the service still answers normally after all of the above', async () => {
  const answer = await call('GET', `/_local/contacts/${UNKNOWN_ID}`);
  expect(answer.status).toBe(404);
  expect(answer.json).toEqual(envelope('not_found'));
});
