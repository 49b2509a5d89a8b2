import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hugeContact, updatesOfOne } from '../contract/server/heavy-lists.js';
import { caller } from '../contract/server/http.js';
import { startServeProcess, type ServeProcess } from '../contract/server/serve-process.js';

/**
 * Performance (npm run test:perf, not npm test): wall-clock bounds that hold on a quiet machine.
 * Their correctness is checked in test/contract/server/list-merge.test.ts.
 */
describe('no request holds the service for long (service in its own process)', () => {
  const HEAVY = 'heavy-user-key-0001';
  const OTHER = 'other-user-key-0001';
  let serve: ServeProcess;
  let heavy: ReturnType<typeof caller>;
  let other: ReturnType<typeof caller>;
  beforeAll(async () => {
    serve = await startServeProcess(['--api-key', HEAVY, '--api-key', OTHER]);
    heavy = caller({ url: serve.url, apiKeys: [HEAVY] });
    other = caller({ url: serve.url, apiKeys: [OTHER] });
  });
  afterAll(() => serve.stop());

  /** Runs `work` while the other user asks every 50 ms; returns its result, time, and the slowest ask. */
  async function whileOtherUserAsks<T>(work: () => Promise<T>) {
    let done = false;
    const waits: number[] = [];
    const asking = (async () => {
      while (!done) {
        const started = performance.now();
        const answer = await other('GET', '/_local/contacts?take=1');
        expect(answer.status).toBe(200);
        waits.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const result = await work();
    const ms = performance.now() - started;
    done = true;
    await asking;
    return { result, ms, slowestOther: Math.max(...waits) };
  }

  const createOne = async (): Promise<string> =>
    (await heavy('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Target' }] } })).json.data
      .contacts[0].id as string;

  // Before the linear merge: 830 s for this request, and the other user waited as long.
  it('answers E1 with 500 elements x 220 e-mails on one contact with 400 at once', async () => {
    const body = updatesOfOne(await createOne(), 220, 'e');
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('PUT', '/v1/contacts/', { body }),
    );
    expect(result.status).toBe(400);
    expect(ms).toBeLessThan(5_000);
    expect(slowestOther).toBeLessThan(3_000);
  });

  // Before: 25 to 53 s, quadratic in the list.
  it('refuses one contact with 20,000 e-mails fast', async () => {
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('POST', '/v1/contacts/', { body: hugeContact() }),
    );
    expect(result.status).toBe(400);
    expect(ms).toBeLessThan(3_000);
    expect(slowestOther).toBeLessThan(3_000);
  });

  it('merges 500 elements on one contact up to the cap in one request, fast', async () => {
    const body = updatesOfOne(await createOne(), 2, 'm');
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('PUT', '/v1/contacts/', { body }),
    );
    expect(result.status).toBe(200);
    expect(ms).toBeLessThan(5_000);
    expect(slowestOther).toBeLessThan(3_000);
  });
});
