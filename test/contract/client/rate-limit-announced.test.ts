import { describe, expect, it } from 'vitest';
import { createLocalClient } from '../../support/local-client.js';
import { caller, startTestService } from '../server/http.js';

describe('a rate limit announced: the local service says it, the client keeps to it', () => {
  it('announces --rate-limit in the IETF draft headers and the X-RateLimit ones, on every answer', async () => {
    const service = await startTestService({ rateLimit: 7 });
    try {
      const call = caller(service);
      const { headers } = await call('GET', '/_local/groups');
      expect(headers['ratelimit-policy']).toBe('"default";q=7;w=1');
      expect(headers.ratelimit).toMatch(/^"default";r=6;t=[01]$/);
      expect(headers['x-ratelimit-limit']).toBe('7');
      expect(headers['x-ratelimit-remaining']).toBe('6');
      // The window's end in epoch seconds: at most one second after the answer's own Date.
      const answeredAt = Math.floor(Date.parse(String(headers.date)) / 1000);
      expect(Number(headers['x-ratelimit-reset']) - answeredAt).toBeGreaterThanOrEqual(0);
      expect(Number(headers['x-ratelimit-reset']) - answeredAt).toBeLessThanOrEqual(1);
      // No limit, or a limit not announced (--no-rate-limit-headers): no headers.
      for (const options of [{}, { rateLimit: 7, rateLimitHeaders: false }]) {
        const none = await startTestService(options);
        try {
          const answer = await caller(none)('GET', '/_local/groups');
          expect([answer.headers['ratelimit-policy'], answer.headers['x-ratelimit-limit']]).toEqual([
            undefined,
            undefined,
          ]);
        } finally {
          await none.close();
        }
      }
    } finally {
      await service.close();
    }
  });

  it('paces before the first 429: 25 requests, 4 at once, under a limit of 10 a second', async () => {
    const service = await startTestService({ rateLimit: 10 });
    const client = createLocalClient({ baseUrl: service.url, apiKey: service.apiKeys[0]!, concurrency: 4 });
    try {
      await Promise.all(Array.from({ length: 25 }, () => client.local.groups()));
      // Unpaced, 15 of the first second's would be refused. One may be, when a loaded host delays
      // a request past the service's window by more than the pace's slack.
      expect(service.injectedFaults().rateLimited).toBeLessThanOrEqual(1);
      expect(client.stats()).toMatchObject({ failed: 0 });
      expect(client.stats().sent).toBeLessThanOrEqual(26);
    } finally {
      await client.close();
      await service.close();
    }
  });
});
