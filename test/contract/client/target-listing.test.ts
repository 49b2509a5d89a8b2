import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client/index.js';
import { LIMITS } from '../../../src/core/schemas/limits.js';
import { listTarget } from '../../../src/load/target-listing.js';
import { answerJson, startPeer, type Peer } from '../../support/peer.js';
import { KEY_B, startHarness, type Harness } from './harness.js';

/**
 * The continuation's listing of the target (load/target-listing.ts): every contact of the user,
 * archived ones included, in the local service's largest pages, and in small pages on a target
 * that refuses the large one.
 */
describe('listing the target', () => {
  let h: Harness;
  const ids: string[] = [];
  /** More than two of the local service's largest pages. */
  const STORED = 2 * LIMITS.takeMax + 150;

  beforeAll(async () => {
    h = await startHarness();
    for (let start = 0; start < STORED; start += 500) {
      const count = Math.min(500, STORED - start);
      const created = await h.client.createContacts(
        Array.from({ length: count }, (_, k) => ({ full_name: `Listed Person ${start + k}` })),
      );
      ids.push(...created.map((c) => c.id));
    }
    await h.client.updateContact(ids[7]!, { is_archived: true });
    // Another user's contacts are never listed.
    await h.clientFor(KEY_B).createContacts([{ full_name: 'Someone Else Entirely' }]);
  });
  afterAll(() => h.close());

  it("pages every contact of the user, archived included, in the local service's largest pages", async () => {
    const ours = new Set(ids.slice(0, STORED - 3));
    const foreign: string[] = [];
    const listing = await listTarget(h.client, ours, (contact) => foreign.push(contact.id));
    expect(listing).toEqual({ listed: STORED, foreign: 3, pages: 3 });
    expect(foreign.sort()).toEqual(ids.slice(STORED - 3).sort());
  });

  it('pages a target that refuses the large page by the small one, one refused request more', async () => {
    // Contacts as the service shows them, served by a target whose largest page is 100.
    const contacts = (await h.client.globalSearch({ take: 230 })).contacts;
    expect(contacts).toHaveLength(230);
    const peer: Peer = await startPeer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const take = Number(url.searchParams.get('take'));
      if (take > LIMITS.takeFallback) {
        answerJson(res, 400, { error: true, code: 'invalid_query', message: 'take must be at most 100' });
        return;
      }
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const next = from + take < contacts.length ? { nextCursor: String(from + take) } : {};
      answerJson(res, 200, { error: false, data: contacts.slice(from, from + take), ...next });
    });
    const client = createClient({ baseUrl: peer.url, apiKey: 'listing-key-5e6f7a', retries: 0 });
    try {
      const listing = await listTarget(client, new Set([contacts[0]!.id, contacts[1]!.id]));
      expect(listing).toEqual({ listed: 230, foreign: 228, pages: 4 });
      expect(peer.requests.map((r) => new URL(r.url, 'http://peer').searchParams.get('take'))).toEqual([
        String(LIMITS.takeMax),
        '100',
        '100',
        '100',
      ]);
    } finally {
      await client.close();
      await peer.close();
    }
  });

  it('stops on any other refusal', async () => {
    const peer = await startPeer((_req, res) => answerJson(res, 403, { error: true, message: 'no' }));
    const client = createClient({ baseUrl: peer.url, apiKey: 'listing-key-5e6f7a', retries: 0 });
    try {
      await expect(listTarget(client, new Set())).rejects.toMatchObject({ status: 403 });
      expect(peer.requests).toHaveLength(1);
    } finally {
      await client.close();
      await peer.close();
    }
  });
});
