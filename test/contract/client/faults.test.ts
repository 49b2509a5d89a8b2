import { afterEach, describe, expect, it } from 'vitest';
import { createClient, RequestError, type RetryEvent } from '../../../src/client/index.js';
import { KEY_A, rejectionOf, startHarness, type Harness } from './harness.js';

/** The client against the service's injected faults: 503, 429, latency; and 400, which is final. */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('retries against injected faults', () => {
  it('retries 503s until every call succeeds, and counts attempts honestly', async () => {
    const events: RetryEvent[] = [];
    h = await startHarness({ failRate: 0.5, seed: 1234 }, { retries: 12, onRetry: (e) => events.push(e) });
    const client = h.client;
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.createContacts([{ full_name: `Flaky ${i}` }])),
    );
    expect(created.flat()).toHaveLength(10);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.error).toMatchObject({ status: 503, code: 'injected_fault', retryable: true });
      expect(event.path).toBe('/v1/contacts/');
    }
    const createStats = client.stats();
    const createCounts = { sent: 10 + events.length, retried: events.length, failed: 0 };
    expect(createStats).toEqual({ ...createCounts, byEndpoint: { 'POST /v1/contacts/': createCounts } });
    const stored = (await client.local.contacts()).filter((c) => String(c.full_name).startsWith('Flaky'));
    expect(stored).toHaveLength(10);
  });

  it('gives up after its retries with the last 503 and counts the call as failed', async () => {
    h = await startHarness({ failRate: 1, seed: 1 }, { retries: 3 });
    const error = (await rejectionOf(h.client.searchContacts({}))) as RequestError;
    expect(error).toMatchObject({ status: 503, code: 'injected_fault', attempts: 4 });
    const counts = { sent: 4, retried: 3, failed: 1 };
    expect(h.client.stats()).toEqual({ ...counts, byEndpoint: { 'GET /v1/contacts/search': counts } });
  });

  it('waits no less than Retry-After after a 429, even with a tiny maximum backoff', async () => {
    h = await startHarness({ rateLimit: 2 });
    const harness = h;
    const calls = Array.from({ length: 6 }, async (_, i) => {
      const retries: { at: number; event: RetryEvent }[] = [];
      const client = harness.clientFor(KEY_A, {
        maxRetryDelayMs: 20,
        retries: 10,
        onRetry: (event) => retries.push({ at: performance.now(), event }),
      });
      await client.createContacts([{ full_name: `Rate ${i}` }]);
      return { done: performance.now(), retries };
    });
    const results = await Promise.all(calls);
    const limited = results.filter((r) => r.retries.length > 0);
    // Six requests at once under a limit of 2 per second: at least 2 are limited even across a second boundary.
    expect(limited.length).toBeGreaterThanOrEqual(2);
    for (const { done, retries } of limited) {
      for (const { event } of retries) {
        expect(event.error).toMatchObject({ status: 429, code: 'rate_limited' });
        expect(event.error.retryAfterMs).toBeGreaterThanOrEqual(1000);
        expect(event.delayMs).toBeGreaterThanOrEqual(event.error.retryAfterMs!);
      }
      const last = retries.at(-1)!;
      expect(done - last.at).toBeGreaterThanOrEqual(last.event.error.retryAfterMs! - 5);
    }
  });

  it('does not retry a 400', async () => {
    const events: RetryEvent[] = [];
    h = await startHarness({}, { onRetry: (e) => events.push(e) });
    const error = (await rejectionOf(
      h.client.updateContact('not-a-uuid', { starred: true }),
    )) as RequestError;
    expect(error.status).toBe(400);
    const bad = (await rejectionOf(h.client.createContacts([{ birthday_year: 3000 }]))) as RequestError;
    expect(bad.status).toBe(400);
    expect(events).toEqual([]);
    expect(h.client.stats()).toEqual({
      sent: 2,
      retried: 0,
      failed: 2,
      byEndpoint: {
        'PUT /v1/contacts/{id}': { sent: 1, retried: 0, failed: 1 },
        'POST /v1/contacts/': { sent: 1, retried: 0, failed: 1 },
      },
    });
  });
});

describe('cancellation', () => {
  it('the client signal aborts in-flight and queued requests at once', async () => {
    h = await startHarness({ latencyMs: 2000 });
    const controller = new AbortController();
    const client = createClient({
      baseUrl: h.service.url,
      apiKey: KEY_A,
      concurrency: 2,
      signal: controller.signal,
    });
    try {
      const calls = Array.from({ length: 6 }, (_, i) =>
        rejectionOf(client.createContacts([{ full_name: `Aborted ${i}` }])),
      );
      setTimeout(() => controller.abort(), 150);
      const errors = await Promise.all(calls);
      for (const error of errors) expect(error).toMatchObject({ code: 'aborted', retryable: false });
      const counts = { sent: 2, retried: 0, failed: 6 };
      expect(client.stats()).toEqual({ ...counts, byEndpoint: { 'POST /v1/contacts/': counts } });
      await expect(client.searchContacts({})).rejects.toMatchObject({ code: 'aborted' });
    } finally {
      await client.close();
    }
  });

  it('a call signal aborts that call only', async () => {
    h = await startHarness({ latencyMs: 300 });
    const controller = new AbortController();
    const aborted = rejectionOf(h.client.searchContacts({}, { signal: controller.signal }));
    const kept = h.client.createContacts([{ full_name: 'Survivor' }]);
    setTimeout(() => controller.abort(), 50);
    expect(await aborted).toMatchObject({ code: 'aborted' });
    await expect(kept).resolves.toHaveLength(1);
  });

  it('aborting during the wait before a retry ends the call at once', async () => {
    h = await startHarness({ failRate: 1, seed: 3 }, { minRetryDelayMs: 10_000, maxRetryDelayMs: 10_000 });
    const controller = new AbortController();
    const call = rejectionOf(h.client.globalSearch({}, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    expect(await call).toMatchObject({ code: 'aborted' });
    expect(h.client.stats()).toMatchObject({ sent: 1, failed: 1 });
  });
});
