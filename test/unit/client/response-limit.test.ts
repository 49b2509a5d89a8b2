import { afterEach, describe, expect, it } from 'vitest';
import { createClient, RequestError, type ServiceClient } from '../../../src/client/index.js';
import { rejectionAs } from '../../support/rejection.js';
import { streamEndlessly } from '../../support/endless-body.js';
import { startPeer, type Peer } from '../../support/peer.js';

const key = 'limit-test-key-90ab17';
const MB = 1024 * 1024;

let peer: Peer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await peer?.close();
  peer = undefined;
  client = undefined;
});

const rejection = (promise: Promise<unknown>) => rejectionAs(promise, RequestError);

describe('response bodies are read up to a limit', () => {
  it('cuts off a 200 MB answer at the limit: one response_too_large, not retried', async () => {
    peer = await startPeer((_req, res) => streamEndlessly(res, 200));
    client = createClient({ baseUrl: peer.url, apiKey: key, maxResponseBytes: MB, minRetryDelayMs: 1 });
    const error = await rejection(client.globalSearch({ take: 1 }));
    expect(error).toMatchObject({ code: 'response_too_large', status: 200, retryable: false, attempts: 1 });
    expect(error.message).toContain('GET /v1/search/contacts answered HTTP 200 with a body over 1 MB');
    expect(peer.requests).toHaveLength(1);
    expect(client.stats().byEndpoint).toEqual({
      'GET /v1/search/contacts': { sent: 1, retried: 0, failed: 1 },
    });
  });

  it('refuses a declared Content-Length over the limit before reading it, on error answers too', async () => {
    peer = await startPeer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'content-length': String(2 * MB) });
      res.write('{"error":true');
      // The rest never comes: only the declared length can have stopped the client.
    });
    client = createClient({ baseUrl: peer.url, apiKey: key, maxResponseBytes: MB, minRetryDelayMs: 1 });
    const error = await rejection(client.bulkUpdateContacts([]));
    expect(error).toMatchObject({ code: 'response_too_large', status: 503, retryable: false });
    expect(peer.requests).toHaveLength(1);
  });

  it('reads an answer of exactly the limit', async () => {
    const payload = JSON.stringify({ error: false, data: { count: 7 } });
    peer = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(payload);
    });
    client = createClient({ baseUrl: peer.url, apiKey: key, maxResponseBytes: Buffer.byteLength(payload) });
    await expect(client.bulkUpdateContacts([])).resolves.toEqual({ count: 7 });
  });
});
