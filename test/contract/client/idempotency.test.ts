import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/** A retried create with the same Idempotency-Key creates once. */
describe('idempotent creates', () => {
  let h: Harness;
  beforeAll(async () => {
    // resetRate: the service applies the request, then drops the connection without answering,
    // the worst case for a create: the client cannot know whether it happened.
    h = await startHarness({ resetRate: 0.4, seed: 7 }, { retries: 10 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('a create retried after a dropped answer exists once', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Idem Person ${i}`);
    const returned: string[] = [];
    for (const name of names) {
      const [created] = await h.client.createContacts([{ full_name: name }]);
      returned.push(created!.id);
    }
    expect(h.client.stats().retried).toBeGreaterThan(0);
    const stored = (await h.client.local.contacts()).filter((c) =>
      String(c.full_name).startsWith('Idem Person'),
    );
    expect(stored.map((c) => c.full_name).sort()).toEqual([...names].sort());
    expect(stored.map((c) => c.id).sort()).toEqual([...returned].sort());
  });

  it('the same key sent again returns the first answer instead of creating twice', async () => {
    const key = 'run-42-chunk-7';
    const first = await h.client.createContacts(
      [{ full_name: 'Twice Sent A' }, { full_name: 'Twice Sent B' }],
      { idempotencyKey: key },
    );
    const second = await h.client.createContacts(
      [{ full_name: 'Twice Sent A' }, { full_name: 'Twice Sent B' }],
      { idempotencyKey: key },
    );
    expect(second.map((c) => c.id)).toEqual(first.map((c) => c.id));
    const stored = (await h.client.local.contacts()).filter((c) =>
      String(c.full_name).startsWith('Twice Sent'),
    );
    expect(stored).toHaveLength(2);
  });

  it('different keys create separately', async () => {
    await h.client.createContacts([{ full_name: 'Separate One' }], { idempotencyKey: 'k-1' });
    await h.client.createContacts([{ full_name: 'Separate One' }], { idempotencyKey: 'k-2' });
    const stored = (await h.client.local.contacts()).filter((c) => c.full_name === 'Separate One');
    expect(stored).toHaveLength(2);
  });
});
