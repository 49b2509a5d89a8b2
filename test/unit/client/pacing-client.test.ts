import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestError } from '../../../src/client/index.js';
import { createLocalClient, type LocalClient } from '../../support/local-client.js';

/**
 * The client's shared gate against a node:http peer that answers the first request with 429 and
 * `Retry-After: 0.4`, then 200, and records when each request arrived.
 */
const key = 'pacing-test-key-71c2';
let server: Server | undefined;
let client: LocalClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeAllConnections();
  server = undefined;
  client = undefined;
});

async function limitedOnce(retryAfter: string): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.setHeader('content-type', 'application/json');
      if (arrivals.length === 1) {
        res.writeHead(429, { 'retry-after': retryAfter });
        res.end(JSON.stringify({ error: true, data: { code: 'rate_limited', message: 'slow down' } }));
        return;
      }
      res.end(JSON.stringify({ error: false, data: { groups: [] } }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, arrivals };
}

describe('client gate after a 429', () => {
  it('holds back first tries of other calls until Retry-After has passed', async () => {
    const peer = await limitedOnce('0.4');
    client = createLocalClient({ baseUrl: peer.url, apiKey: key, concurrency: 1, minRetryDelayMs: 1 });
    const limitedCall = client.local.groups();
    // Wait for the 429 to arrive, then start an unrelated call that never saw it.
    while (peer.arrivals.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    const other = client.local.groups();
    await Promise.all([limitedCall, other]);
    expect(peer.arrivals).toHaveLength(3);
    const limitedAt = peer.arrivals[0]!;
    for (const at of peer.arrivals.slice(1)) expect(at - limitedAt).toBeGreaterThanOrEqual(400 - 5);
    expect(client.stats()).toEqual({
      sent: 3,
      retried: 1,
      failed: 0,
      byEndpoint: { 'GET /_local/groups': { sent: 3, retried: 1, failed: 0 } },
    });
  });

  it('an aborted call does not wait out the gate and is not counted as sent', async () => {
    const peer = await limitedOnce('30');
    client = createLocalClient({ baseUrl: peer.url, apiKey: key, retries: 0 });
    await expect(client.local.groups()).rejects.toMatchObject({ status: 429 });
    const controller = new AbortController();
    const waiting = client.local.groups({ signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const error = await waiting.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: 'aborted' });
    expect(peer.arrivals).toHaveLength(1);
    expect(client.stats()).toMatchObject({ sent: 1, retried: 0, failed: 2 });
  });

  it('can be turned off: without pacing, other calls go ahead during Retry-After', async () => {
    const peer = await limitedOnce('30');
    client = createLocalClient({ baseUrl: peer.url, apiKey: key, retries: 0, pacing: false });
    await expect(client.local.groups()).rejects.toMatchObject({ status: 429 });
    await client.local.groups();
    expect(peer.arrivals).toHaveLength(2);
  });
});
