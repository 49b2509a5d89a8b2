import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client/index.js';
import { startHarness, type Harness } from './harness.js';

/**
 * createContacts with `bodyJson`: the loader records a create's body in the ledger before sending
 * it, and sends (and after a crash resends) those very bytes instead of serializing again.
 */
describe('createContacts with a body serialized by the caller', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('sends the given text byte for byte, with its key and content type', async () => {
    const seen: { body: string; type?: string; key?: string }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (part: Buffer) => (body += part.toString()));
      req.on('end', () => {
        seen.push({
          body,
          type: req.headers['content-type'],
          key: req.headers['idempotency-key'] as string | undefined,
        });
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'body-json-key-91ab',
      retries: 0,
    });
    // Spacing JSON.stringify would never produce: only the caller's text can arrive like this.
    const bodyJson = '{ "contacts" : [ { "full_name" : "Spaced Out" } ] }';
    try {
      await expect(
        client.createContacts([{ full_name: 'Spaced Out' }], { idempotencyKey: 'k-raw', bodyJson }),
      ).rejects.toMatchObject({ status: 500 });
    } finally {
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(seen).toEqual([{ body: bodyJson, type: 'application/json', key: 'k-raw' }]);
  });

  it('the service creates from it, and a resend under the same key gets the first answer', async () => {
    const contacts = [{ full_name: 'Recorded Body A' }, { full_name: 'Recorded Body B' }];
    const bodyJson = JSON.stringify({ contacts });
    const first = await h.client.createContacts(contacts, { idempotencyKey: 'rec-1', bodyJson });
    expect(first.map((c) => c.full_name)).toEqual(['Recorded Body A', 'Recorded Body B']);
    // As a resumed run does: the recorded text again, same key.
    const resent = await h.client.createContacts(contacts, { idempotencyKey: 'rec-1', bodyJson });
    expect(resent.map((c) => c.id)).toEqual(first.map((c) => c.id));
    // The client's own serialization of the same contacts is the same request to the service.
    const serialized = await h.client.createContacts(contacts, { idempotencyKey: 'rec-1' });
    expect(serialized.map((c) => c.id)).toEqual(first.map((c) => c.id));
    const stored = (await h.client.local.contacts()).filter((c) =>
      String(c.full_name).startsWith('Recorded Body'),
    );
    expect(stored).toHaveLength(2);
  });
});
