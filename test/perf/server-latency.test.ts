import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/schemas/limits.js';
import { caller } from '../contract/server/http.js';
import { startServeProcess, type ServeProcess } from '../contract/server/serve-process.js';

/**
 * Performance (npm run test:perf, not npm test): wall-clock bounds that hold on a quiet machine.
 * Their correctness is checked in test/contract/server/list-merge.test.ts.
 */
const CAP = LIMITS.maxListEntries;
const emails = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@list.test` }));

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
    const id = await createOne();
    const body = Array.from({ length: 500 }, (_, k) => ({
      contactId: id,
      data: { contact_emails: emails(220, `e${k}`) },
    }));
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('PUT', '/v1/contacts/', { body }),
    );
    expect(result.status).toBe(400);
    expect(result.json.data.details).toEqual([
      expect.objectContaining({ path: '4.data.contact_emails', index: 4 }),
    ]);
    expect(ms).toBeLessThan(5_000);
    expect(slowestOther).toBeLessThan(3_000);
    expect((await heavy('GET', `/_local/contacts/${id}`)).json.data.contact.contact_emails).toEqual([]);
  });

  // Before: 25 to 53 s, quadratic in the list.
  it('refuses one contact with 20,000 e-mails fast', async () => {
    const body = { contacts: [{ full_name: 'Huge', contact_emails: emails(20_000, 'huge') }] };
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('POST', '/v1/contacts/', { body }),
    );
    expect(result.status).toBe(400);
    expect(result.json.data.details[0]).toMatchObject({ path: 'contacts.0.contact_emails', index: 0 });
    expect(ms).toBeLessThan(3_000);
    expect(slowestOther).toBeLessThan(3_000);
  });

  it('merges 500 elements on one contact up to the cap in one request, fast', async () => {
    const id = await createOne();
    const body = Array.from({ length: 500 }, (_, k) => ({
      contactId: id,
      data: { contact_emails: emails(2, `m${k}`) },
    }));
    const { result, ms, slowestOther } = await whileOtherUserAsks(() =>
      heavy('PUT', '/v1/contacts/', { body }),
    );
    expect(result.status).toBe(200);
    expect(result.json.data.count).toBe(500);
    expect(ms).toBeLessThan(5_000);
    expect(slowestOther).toBeLessThan(3_000);
    const stored = (await heavy('GET', `/_local/contacts/${id}`)).json.data.contact.contact_emails;
    expect(stored).toHaveLength(CAP);
    expect(stored[0].email).toBe('m0-0@list.test');
    expect(stored[CAP - 1].email).toBe('m499-1@list.test');
  });
});
