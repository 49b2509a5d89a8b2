import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/server/faults.js';
import { caller, startTestService } from './http.js';

describe('fail-rate', () => {
  const statuses = async (seed: number): Promise<{ statuses: number[]; stored: number }> => {
    const service = await startTestService({ failRate: 0.3, seed });
    const call = caller(service);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const answer = await call('POST', '/v1/groups/', { body: { group: { name: `g${i}` } } });
      if (answer.status === 503) expect(answer.json.data.code).toBe('injected_fault');
      statuses.push(answer.status);
    }
    let stored: number | undefined;
    while (stored === undefined) {
      const answer = await call('GET', '/_local/groups');
      if (answer.status === 200) stored = answer.json.data.groups.length;
    }
    await service.close();
    return { statuses, stored };
  };

  it('answers about the given fraction with 503, applies none of them, and repeats with the same seed', async () => {
    const first = await statuses(42);
    const failed = first.statuses.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(200 * 0.3 * 0.6);
    expect(failed).toBeLessThan(200 * 0.3 * 1.4);
    expect(first.statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(first.stored).toBe(200 - failed);
    const again = await statuses(42);
    expect(again.statuses).toEqual(first.statuses);
    const other = await statuses(7);
    expect(other.statuses).not.toEqual(first.statuses);
  });

  it('draws from a seeded generator that is uniform enough', () => {
    const next = seededRandom(123);
    const draws = Array.from({ length: 10_000 }, next);
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After in whole seconds beyond N per second per key', async () => {
    const service = await startTestService({ rateLimit: 5, apiKeys: ['rate-key-one', 'rate-key-two'] });
    const call = caller(service);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call('GET', '/_local/groups', { key: 'rate-key-one' })),
    );
    const limited = answers.filter((a) => a.status === 429);
    // 12 requests span at most two one-second windows of 5 each.
    expect(limited.length).toBeGreaterThanOrEqual(2);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(10);
    for (const answer of limited) {
      expect(answer.json.data.code).toBe('rate_limited');
      expect(String(answer.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
    }
    // Per key: the other user still gets through.
    expect((await call('GET', '/_local/groups', { key: 'rate-key-two' })).status).toBe(200);
    await service.close();
  });
});

describe('reset-rate', () => {
  it('applies the request, then drops the connection without an answer', async () => {
    const service = await startTestService({ resetRate: 0.5, seed: 3 });
    const call = caller(service);
    let dropped = 0;
    const attempts = 20;
    for (let i = 0; i < attempts; i++) {
      try {
        const answer = await call('POST', '/v1/contacts/', {
          body: { contacts: [{ full_name: `Reset ${i}` }] },
        });
        expect(answer.status).toBe(200);
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
        dropped += 1;
      }
    }
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThan(attempts);
    let stored: string[] | undefined;
    while (!stored) {
      try {
        stored = (await call('GET', '/_local/contacts')).json.data.contacts.map(
          (c: { full_name: string }) => c.full_name,
        );
      } catch {
        // This read's answer was dropped too; ask again.
      }
    }
    // Every create was applied, answered or not: the ambiguous case a client must survive.
    expect(stored).toEqual(Array.from({ length: attempts }, (_, i) => `Reset ${i}`));
    await service.close();
  });
});

describe('latency', () => {
  it('delays every answer, past a client timeout, after applying the request', async () => {
    const service = await startTestService({ latencyMs: 400 });
    const call = caller(service);
    const started = performance.now();
    const answer = await call('GET', '/_local/groups');
    expect(answer.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);

    const timedOut = await request(`${service.url}/v1/groups/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKeys[0]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ group: { name: 'Slow' } }),
      signal: AbortSignal.timeout(100),
    }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(Error);
    expect((timedOut as Error).name).toBe('TimeoutError');
    // The server finished the work before its delayed answer; the client just never saw it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const groups = await call('GET', '/_local/groups');
    expect(groups.json.data.groups.map((g: { name: string }) => g.name)).toEqual(['Slow']);
    await service.close();
  });
});
