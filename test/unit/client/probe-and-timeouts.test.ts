import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  RequestError,
  type ClientOptions,
  type ServiceClient,
} from '../../../src/client/index.js';
import { resolveClientOptions } from '../../../src/client/options.js';
import { rejectionAs } from '../../support/rejection.js';
import { answerJson, emptySearch, startPeer, type Peer } from '../../support/peer.js';

const key = 'probe-test-key-4c8e21';
const MB = 1024 * 1024;

let peer: Peer | undefined;
let client: ServiceClient | undefined;
afterEach(async () => {
  await client?.close();
  await peer?.close();
  peer = undefined;
  client = undefined;
});

const clientOf = (options: Partial<ClientOptions> & { baseUrl: string }): ServiceClient =>
  (client = createClient({ apiKey: key, minRetryDelayMs: 1, ...options }));

const rejection = (promise: Promise<unknown>) => rejectionAs(promise, RequestError);

/** A port nothing listens on: a peer started and closed again. */
const closedPort = async (): Promise<string> => {
  const gone = await startPeer(() => undefined);
  await gone.close();
  return gone.url;
};

describe('the start probe', () => {
  it('asks E4 for one contact, archived included, and tells whether the target holds any', async () => {
    peer = await startPeer((_req, res) => answerJson(res, 200, emptySearch));
    expect(await clientOf({ baseUrl: peer.url }).probe()).toEqual({ holdsContacts: false });
    expect(peer.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/search/contacts?take=1&archived=true',
    ]);
  });

  it('gives up on a target that never answers after its own timeout, with no retry', async () => {
    peer = await startPeer(() => undefined);
    const started = performance.now();
    const error = await rejection(clientOf({ baseUrl: peer.url, probeTimeoutMs: 300 }).probe());
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ code: 'request_timeout', attempts: 1 });
    expect(error.message).toBe('GET /v1/search/contacts got no complete answer within 300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(peer.requests).toHaveLength(1);
  });

  it('waits 10 s by default, the request timeout when only that is given, its own when given', () => {
    const probeTimeout = (options: Partial<ClientOptions>) =>
      resolveClientOptions({ baseUrl: 'http://127.0.0.1:1', apiKey: key, ...options }).probeTimeoutMs;
    expect(probeTimeout({})).toBe(10_000);
    expect(probeTimeout({ timeoutMs: 60_000 })).toBe(60_000);
    expect(probeTimeout({ timeoutMs: 60_000, probeTimeoutMs: 5_000 })).toBe(5_000);
  });

  it('uses an explicit request timeout (--timeout) as its own', async () => {
    peer = await startPeer(() => undefined);
    const error = await rejection(clientOf({ baseUrl: peer.url, timeoutMs: 400 }).probe());
    expect(error.message).toContain('within 400 ms');
  });

  it('stops at once on a refused connection, naming the cause in words', async () => {
    const error = await rejection(clientOf({ baseUrl: await closedPort() }).probe());
    expect(error).toMatchObject({ code: 'target_unreachable', networkCode: 'ECONNREFUSED', attempts: 1 });
    expect(error.message).toContain('connection refused');
  });

  it('stops at once when the host name does not resolve', async () => {
    const error = await rejection(clientOf({ baseUrl: 'http://no-such-host.invalid' }).probe());
    expect(error.code).toBe('target_unreachable');
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(error.networkCode);
    expect(error.message).toMatch(/host name .*\(DNS\)/);
    expect(error.attempts).toBe(1);
  });

  it('stops at once on a TLS failure (https:// to a plain HTTP port)', async () => {
    peer = await startPeer((_req, res) => answerJson(res, 200, emptySearch));
    const error = await rejection(clientOf({ baseUrl: peer.url.replace('http:', 'https:') }).probe());
    expect(error).toMatchObject({ code: 'target_unreachable', attempts: 1 });
    expect(error.message).toMatch(/TLS failed: .*\(ERR_SSL_/);
    expect(peer.requests).toHaveLength(0);
  });

  it('still retries answers that ask for it (503) within the same probe', async () => {
    peer = await startPeer((_req, res) =>
      peer!.requests.length < 3
        ? answerJson(res, 503, { error: true, data: { code: 'unavailable', message: 'busy', details: [] } })
        : answerJson(res, 200, emptySearch),
    );
    expect(await clientOf({ baseUrl: peer.url }).probe()).toEqual({ holdsContacts: false });
    expect(peer.requests).toHaveLength(3);
  });

  it('names where a refused key came from, never the key', async () => {
    peer = await startPeer((_req, res) =>
      answerJson(res, 401, {
        error: true,
        data: { code: 'unauthorized', message: 'A valid API key is required.', details: [] },
      }),
    );
    const error = await rejection(
      clientOf({ baseUrl: peer.url, keySource: '--api-key-file /home/me/crs.key' }).probe(),
    );
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', attempts: 1 });
    expect(error.message).toContain('the API key from --api-key-file /home/me/crs.key was refused');
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(key);
  });
});

describe('request timeouts scale with the body', () => {
  /** Answers every request after `delayMs`, so only the timeout decides who fails. */
  const slowPeer = (delayMs: number) =>
    startPeer((_req, res) => {
      setTimeout(() => answerJson(res, 200, { error: false, data: { count: 0 } }), delayMs);
    });
  const elements = (bytes: number) => [
    { contactId: '6f1f5a2e-8c1b-4d5e-9f00-123456789abc', data: { description: 'x'.repeat(bytes) } },
  ];

  it('times out a small request at the base timeout', async () => {
    peer = await slowPeer(700);
    const c = clientOf({ baseUrl: peer.url, timeoutMs: 250, timeoutPerMbMs: 2000, retries: 0 });
    const error = await rejection(c.bulkUpdateContacts(elements(100)));
    expect(error.code).toBe('request_timeout');
    expect(error.message).toMatch(/within (25\d|26\d) ms/);
  });

  it('gives a 1 MB body the base plus the per-MB allowance', async () => {
    peer = await slowPeer(700);
    const c = clientOf({ baseUrl: peer.url, timeoutMs: 250, timeoutPerMbMs: 2000, retries: 0 });
    await expect(c.bulkUpdateContacts(elements(MB))).resolves.toEqual({ count: 0 });
  });
});
