import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../../src/server/index.js';
import { UNKNOWN_ID, caller, startTestService } from './http.js';
import { startServeProcess } from './serve-process.js';

/** The local service playing targets for tests: one without idempotency keys, one that loses contacts. */

const stored = async (call: ReturnType<typeof caller>) =>
  (await call('GET', '/_local/contacts')).json.data.contacts as {
    id: string;
    full_name: string;
    contact_emails: { email: string }[];
    related_contacts: { destination: string }[];
  }[];

describe('--no-idempotency: Idempotency-Key is ignored, as by a target without it', () => {
  let plain: LocalService;
  beforeAll(async () => {
    plain = await startTestService({ idempotency: false });
  });
  afterAll(() => plain.close());

  it('creates again on a repeat with the same key, never replays or conflicts, whatever the header holds', async () => {
    const call = caller(plain);
    const headers = { 'idempotency-key': 'chunk-1' };
    const body = { contacts: [{ full_name: 'Twice' }] };
    const first = await call('POST', '/v1/contacts/', { body, headers });
    const repeat = await call('POST', '/v1/contacts/', { body, headers });
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBeUndefined();
    expect(repeat.json.data.contacts[0].id).not.toBe(first.json.data.contacts[0].id);
    const other = await call('POST', '/v1/contacts/', {
      body: { contacts: [{ full_name: 'Other' }] },
      headers,
    });
    expect(other.status).toBe(200);
    const tooLong = await call('POST', '/v1/contacts/', {
      body,
      headers: { 'idempotency-key': 'k'.repeat(300) },
    });
    expect(tooLong.status).toBe(200);
    expect((await stored(call)).map((c) => c.full_name)).toEqual(['Twice', 'Twice', 'Other', 'Twice']);
  });

  it('the serve flag reaches the service', async () => {
    const serve = await startServeProcess(['--no-idempotency', '--api-key', 'no-idem-key-01']);
    try {
      const call = caller({ url: serve.url, apiKeys: ['no-idem-key-01'] });
      const headers = { 'idempotency-key': 'same' };
      for (let i = 0; i < 2; i++) {
        await call('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Again' }] }, headers });
      }
      expect(await stored(call)).toHaveLength(2);
    } finally {
      await serve.stop();
    }
  });
});

describe('DELETE /_local/contacts/{id}', () => {
  let service: LocalService;
  let call: ReturnType<typeof caller>;
  let stranger: string;
  beforeAll(async () => {
    service = await startTestService();
    call = caller(service);
    stranger = service.addUser();
  });
  afterAll(() => service.close());

  it('removes the contact with its lists and the links to it; E1 then counts it as unknown', async () => {
    const group = (await call('POST', '/v1/groups/', { body: { group: { name: 'g' } } })).json.data.group.id;
    const created = await call('POST', '/v1/contacts/', {
      body: {
        contacts: [
          {
            full_name: 'Gone',
            contact_emails: [{ email: 'gone@delete.test' }],
            groups_contacts: [{ group_id: group }],
          },
          { full_name: 'Stays' },
        ],
      },
    });
    const [gone, stays] = created.json.data.contacts.map((c: { id: string }) => c.id) as [string, string];
    await call('PUT', `/v1/contacts/${stays}`, {
      body: { related_contacts: { append: [{ destination: gone }] } },
    });

    const deleted = await call('DELETE', `/_local/contacts/${gone}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ error: false, data: { deleted: { id: gone } } });

    expect((await call('GET', `/_local/contacts/${gone}`)).status).toBe(404);
    const left = await stored(call);
    expect(left.map((c) => c.id)).toEqual([stays]);
    expect(left[0]?.related_contacts).toEqual([]);
    const search = await call('GET', '/v1/search/contacts?searchQuery=gone@delete.test&exactMatch=true');
    expect(search.json.data).toEqual([]);
    const groups = (await call('GET', '/_local/groups')).json.data.groups;
    expect(groups[0].contact_ids).toEqual([]);
    const e1 = await call('PUT', '/v1/contacts/', {
      body: [
        { contactId: gone, data: { job_title: 'x' } },
        { contactId: stays, data: { job_title: 'y' } },
      ],
    });
    expect(e1.json.data.count).toBe(1);
    expect((await call('DELETE', `/_local/contacts/${gone}`)).status).toBe(404);
  });

  it("is behind auth and touches only the caller's own contacts", async () => {
    const id = (await call('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Mine' }] } })).json
      .data.contacts[0].id;
    const noKey = await call('DELETE', `/_local/contacts/${id}`, { key: null });
    expect(noKey.status).toBe(401);
    const theirs = await call('DELETE', `/_local/contacts/${id}`, { key: stranger });
    expect(theirs.status).toBe(404);
    expect(theirs.json.data.code).toBe('not_found');
    expect((await call('GET', `/_local/contacts/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/_local/contacts/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await call('DELETE', '/_local/contacts/not-a-uuid')).json.data.code).toBe('invalid_path');
  });
});
