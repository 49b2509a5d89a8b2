import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, RequestError, type ServiceClient } from '../../../src/client/index.js';
import { rejectionAs } from '../../support/rejection.js';

/**
 * The client against a plain node:http peer whose every answer the test scripts, for the cases the
 * local service cannot produce on demand (bad shapes, hangs, closed ports).
 */
const key = 'peer-test-key-5b1e';
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const contact = (id: string) => ({
  id,
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  job_title: null,
  company: null,
  description: null,
  legacy_location: null,
  website: null,
  image_url: null,
  starred: false,
  is_archived: false,
  birthday: null,
  worknet: null,
  microblog: null,
  socialnet: null,
  photonet: null,
  frequency: null,
  source: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  extra_field: 'kept',
});
const ID = '6f1f5a2e-8c1b-4d5e-9f00-123456789abc';

let server: Server | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeAllConnections();
  server = undefined;
  client = undefined;
});

async function peer(handler: Handler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

const json = (
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(payload));
};

const rejection = (promise: Promise<unknown>) => rejectionAs(promise, RequestError);

describe('client over HTTP', () => {
  it('sends the bearer key, JSON body and an Idempotency-Key; keeps extra response fields', async () => {
    const seen: { auth?: string; type?: string; idem?: string; body?: unknown } = {};
    const { url } = await peer((req, res, body) => {
      Object.assign(seen, {
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        idem: req.headers['idempotency-key'],
        body: JSON.parse(body),
      });
      json(res, 200, { error: false, data: { contacts: [contact(ID)] } });
    });
    client = createClient({ baseUrl: url, apiKey: key });
    const created = await client.createContacts([{ full_name: 'Ada Lovelace' }]);
    expect(created[0]).toMatchObject({ id: ID, extra_field: 'kept' });
    expect(seen).toMatchObject({
      auth: `Bearer ${key}`,
      type: 'application/json',
      body: { contacts: [{ full_name: 'Ada Lovelace' }] },
    });
    expect(seen.idem).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reuses keep-alive connections for sequential requests', async () => {
    const { url, connections } = await peer((_req, res) =>
      json(res, 200, { error: false, data: { count: 0 } }),
    );
    client = createClient({ baseUrl: url, apiKey: key });
    for (let i = 0; i < 10; i += 1) await client.bulkUpdateContacts([]);
    // undici's pool may alternate between two idle sockets; without keep-alive this would be 10.
    expect(connections()).toBeLessThanOrEqual(2);
    const counts = { sent: 10, retried: 0, failed: 0 };
    expect(client.stats()).toEqual({ ...counts, byEndpoint: { 'PUT /v1/contacts/': counts } });
  });

  it('never has more requests in flight than the concurrency limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const { url } = await peer((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        json(res, 200, { error: false, data: { count: 1 } });
      }, 20);
    });
    client = createClient({ baseUrl: url, apiKey: key, concurrency: 2 });
    const c = client;
    const results = await Promise.all(Array.from({ length: 8 }, () => c.bulkUpdateContacts([])));
    expect(results.every((r) => r.count === 1)).toBe(true);
    expect(peak).toBe(2);
  });

  it('makes a wrong-shaped 200 a final service_error, not a crash', async () => {
    let calls = 0;
    const { url } = await peer((_req, res) => {
      calls += 1;
      json(res, 200, { error: false, data: { contact: { id: 42 } } });
    });
    client = createClient({ baseUrl: url, apiKey: key, minRetryDelayMs: 1 });
    const error = await rejection(client.updateContact(ID, { job_title: 'Engineer' }));
    expect(error).toMatchObject({ code: 'service_error', status: 200, retryable: false });
    expect(error.message).toContain('contact.id');
    expect(calls).toBe(1);
    const counts = { sent: 1, retried: 0, failed: 1 };
    expect(client.stats()).toEqual({ ...counts, byEndpoint: { 'PUT /v1/contacts/{id}': counts } });
  });

  it('retries a hanging answer as a timeout, then succeeds', async () => {
    let calls = 0;
    const { url } = await peer((_req, res) => {
      calls += 1;
      if (calls === 1) return; // never answers
      json(res, 200, { error: false, data: { count: 3 } });
    });
    const retries: string[] = [];
    client = createClient({
      baseUrl: url,
      apiKey: key,
      // Long enough that the second, answered request never times out on a loaded machine.
      timeoutMs: 2_000,
      minRetryDelayMs: 1,
      onRetry: (e) => retries.push(e.error.code),
    });
    await expect(client.bulkUpdateContacts([])).resolves.toEqual({ count: 3 });
    expect(retries).toEqual(['request_timeout']);
    expect(client.stats()).toMatchObject({ sent: 2, retried: 1, failed: 0 });
  });

  it('reports an unreachable target after its retries, without the key', async () => {
    const { url } = await peer(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    client = createClient({ baseUrl: url, apiKey: key, retries: 2, minRetryDelayMs: 1 });
    const error = await rejection(client.searchContacts({ fullName: 'ada' }));
    expect(error).toMatchObject({ code: 'target_unreachable', retryable: true, attempts: 3 });
    expect(error.message).toContain('GET /v1/contacts/search');
    expect(error.message).toContain(
      'connection refused (nothing listens at that address and port) (ECONNREFUSED)',
    );
    expect(error.networkCode).toBe('ECONNREFUSED');
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(key);
    expect(client.stats()).toMatchObject({ sent: 3, retried: 2, failed: 1 });
  });

  it('serializes search queries and reads E4 nextCursor beside data', async () => {
    let query = '';
    const { url } = await peer((req, res) => {
      query = req.url ?? '';
      json(res, 200, { error: false, data: [contact(ID)], nextCursor: 'c2' });
    });
    client = createClient({ baseUrl: url, apiKey: key });
    const page = await client.globalSearch({
      searchQuery: 'a@b.co',
      exactMatch: true,
      take: 5,
      cursor: undefined,
    });
    expect(query).toBe('/v1/search/contacts?searchQuery=a%40b.co&exactMatch=true&take=5');
    expect(page.nextCursor).toBe('c2');
    expect(page.contacts.map((c) => c.id)).toEqual([ID]);
  });

  it('validates its options and refuses a key that cannot be a header value, without echoing it', () => {
    expect(() => createClient({ baseUrl: 'not a url', apiKey: key })).toThrow(
      /did you mean https:\/\/not a url/,
    );
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: key, concurrency: 0 })).toThrow(
      /concurrency/,
    );
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: key, retries: -1 })).toThrow(
      /retries/,
    );
    expect(() => createClient({ baseUrl: 'ftp://127.0.0.1:1', apiKey: key })).toThrow(
      /expected http:\/\/ or https:\/\//,
    );
    const bad = 'abc\ndef-secret';
    let message = '';
    try {
      createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: bad });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/API key/);
    expect(message).not.toContain('def-secret');
  });
});
