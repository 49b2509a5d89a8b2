import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../../src/server/index.js';
import { timeOrderedId } from '../../../src/server/store/ids.js';
import { uuid } from '../../../src/core/schemas/primitives.js';
import { UNKNOWN_ID, caller, startTestService } from './http.js';

let service: LocalService;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  service = await startTestService();
  call = caller(service);
});
afterAll(() => service.close());

const create = async (contacts: unknown[], headers?: Record<string, string>) => {
  const answer = await call('POST', '/v1/contacts/', { body: { contacts }, headers });
  expect(answer.status).toBe(200);
  return answer;
};
const local = async (id: string) => {
  const answer = await call('GET', `/_local/contacts/${id}`);
  expect(answer.status).toBe(200);
  return answer.json.data.contact;
};

describe('POST /v1/contacts/', () => {
  it('creates in request order and answers the response shape with fresh ids', async () => {
    const names = ['First Person', 'Second Person', 'Third Person'];
    const answer = await create(
      names.map((full_name) => ({ full_name, starred: full_name.startsWith('S') })),
    );
    expect(answer.json.error).toBe(false);
    const contacts = answer.json.data.contacts;
    expect(contacts.map((c: { full_name: string }) => c.full_name)).toEqual(names);
    expect(new Set(contacts.map((c: { id: string }) => c.id)).size).toBe(3);
    expect(contacts[1]).toMatchObject({ starred: true, is_archived: false, company: null });
    expect(Object.keys(contacts[0]).sort()).toEqual(
      [
        'id',
        'full_name',
        'first_name',
        'last_name',
        'job_title',
        'company',
        'description',
        'legacy_location',
        'website',
        'image_url',
        'starred',
        'is_archived',
        'birthday',
        'worknet',
        'microblog',
        'socialnet',
        'photonet',
        'frequency',
        'source',
        'created_at',
        'updated_at',
      ].sort(),
    );
  });

  it('stores every scalar write field under its write name and every list', async () => {
    const write = {
      full_name: 'Grace Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
      education: 'Yale',
      source: 'csv_import',
      birthday: '1906-12-09',
      birthday_year: 1906,
      frequency: '3 mons',
      never_keep_in_touch: true,
      worknet_data: { headline: 'Admiral' },
      coordinates: { operation: 'set', data: { latitude: 1.5, longitude: -2 } },
      legacy_contact_addresses: [{ formatted: 'Arlington, VA' }],
      contact_emails: [{ email: 'Grace@Navy.test', label: 'work', ranking: 1 }],
      contact_phone_numbers: [
        {
          phone_number: '+1 202-555-0100',
          phone_number_sanitized: '+12025550100',
          country_code: 'US',
          label: 'work',
          ranking: 1,
        },
      ],
    };
    const id = (await create([write])).json.data.contacts[0].id;
    const stored = await local(id);
    const { contact_emails, contact_phone_numbers, ...scalars } = write;
    expect(stored).toMatchObject(scalars);
    expect(stored.contact_emails).toEqual(contact_emails);
    expect(stored.contact_phone_numbers).toEqual(contact_phone_numbers);
    expect(stored).toMatchObject({
      job_title: null,
      website: null,
      starred: false,
      groups_contacts: [],
      custom_fields: [],
    });
  });

  it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
    const headers = { 'idempotency-key': 'run-1-chunk-7' };
    const body = [{ full_name: 'Idem Potent' }];
    const first = await create(body, headers);
    const again = await create(body, headers);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const found = await call('GET', '/v1/contacts/search?fullName=idem%20potent');
    expect(found.json.data.contacts).toHaveLength(1);

    const conflict = await call('POST', '/v1/contacts/', {
      body: { contacts: [{ full_name: 'Other' }] },
      headers,
    });
    expect(conflict.status).toBe(409);
    expect(conflict.json.data.code).toBe('idempotency_conflict');

    // Keys are per user: another user's same key creates that user's own contact.
    const otherKey = service.addUser();
    const other = await call('POST', '/v1/contacts/', { body: { contacts: body }, headers, key: otherKey });
    expect(other.status).toBe(200);
    expect(other.json.data.contacts[0].id).not.toBe(first.json.data.contacts[0].id);
  });
});

describe('list merges on E2', () => {
  it('merges e-mails case-insensitively, phones by sanitized number, adds groups, sets custom values', async () => {
    const group1 = (await call('POST', '/v1/groups/', { body: { group: { name: 'Friends' } } })).json.data
      .group.id;
    const group2 = (await call('POST', '/v1/groups/', { body: { group: { name: 'Work' } } })).json.data.group
      .id;
    const field = (
      await call('POST', '/v1/custom-fields/', { body: { custom_field: { name: 'Shoe size' } } })
    ).json.data.custom_field.id;
    const id = (
      await create([
        {
          full_name: 'Merge Me',
          contact_emails: [{ email: 'merge@x.test', label: 'home', ranking: 1 }],
          contact_phone_numbers: [
            { phone_number: '+44 20 7946 0000', phone_number_sanitized: '+442079460000', label: 'home' },
          ],
          groups_contacts: [{ group_id: group1 }],
          custom_fields: [{ id: field, text_value: '42' }],
        },
      ])
    ).json.data.contacts[0].id;

    const answer = await call('PUT', `/v1/contacts/${id}`, {
      body: {
        contact_emails: [{ email: 'MERGE@X.TEST', label: 'work', ranking: 2 }, { email: 'second@x.test' }],
        contact_phone_numbers: [
          { phone_number: '020 7946 0000', phone_number_sanitized: '+442079460000', label: 'work' },
          { phone_number: '+1 415 555 0100' },
        ],
        groups_contacts: [{ group_id: group1 }, { group_id: group2 }],
        custom_fields: [{ id: field, text_value: '43' }],
      },
    });
    expect(answer.status).toBe(200);
    const stored = await local(id);
    expect(stored.contact_emails).toEqual([
      { email: 'merge@x.test', label: 'work', ranking: 2 },
      { email: 'second@x.test', label: null, ranking: null },
    ]);
    expect(stored.contact_phone_numbers).toEqual([
      {
        phone_number: '020 7946 0000',
        phone_number_sanitized: '+442079460000',
        country_code: null,
        label: 'work',
        ranking: null,
      },
      {
        phone_number: '+1 415 555 0100',
        phone_number_sanitized: null,
        country_code: null,
        label: null,
        ranking: null,
      },
    ]);
    expect(stored.groups_contacts).toEqual([
      { group_id: group1, name: 'Friends' },
      { group_id: group2, name: 'Work' },
    ]);
    expect(stored.custom_fields).toEqual([{ id: field, name: 'Shoe size', text_value: '43' }]);
    expect(stored.full_name).toBe('Merge Me');
  });

  it('applies tag and related-contact append, remove and replace', async () => {
    const [a, b, c] = (
      await create([{ full_name: 'Tag A' }, { full_name: 'Tag B' }, { full_name: 'Tag C' }])
    ).json.data.contacts.map((x: { id: string }) => x.id);
    const t1 = '11111111-1111-4111-8111-111111111111';
    const t2 = '22222222-2222-4222-8222-222222222222';
    const t3 = '33333333-3333-4333-8333-333333333333';
    await call('PUT', `/v1/contacts/${a}`, {
      body: {
        tags_contacts: { append: [{ tag_id: t1 }, { tag_id: t2 }] },
        related_contacts: { append: [{ destination: b }, { destination: c }] },
      },
    });
    let stored = await local(a);
    expect(stored.tags_contacts).toEqual([{ tag_id: t1 }, { tag_id: t2 }]);
    expect(stored.related_contacts).toEqual([{ destination: b }, { destination: c }]);

    await call('PUT', `/v1/contacts/${a}`, {
      body: {
        tags_contacts: { remove: [{ tag_id: t1, contact_id: a }] },
        related_contacts: { remove: [{ source: a, destination: b }] },
      },
    });
    stored = await local(a);
    expect(stored.tags_contacts).toEqual([{ tag_id: t2 }]);
    expect(stored.related_contacts).toEqual([{ destination: c }]);

    await call('PUT', `/v1/contacts/${a}`, {
      body: {
        tags_contacts: { replace: [{ tag_id: t3 }] },
        related_contacts: { replace: [{ destination: b }] },
      },
    });
    stored = await local(a);
    expect(stored.tags_contacts).toEqual([{ tag_id: t3 }]);
    expect(stored.related_contacts).toEqual([{ destination: b }]);

    const bad = await call('PUT', `/v1/contacts/${a}`, {
      body: { related_contacts: { append: [{ destination: UNKNOWN_ID }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.data.details[0].path).toBe('related_contacts.append.0.destination');
  });

  it('keeps omitted fields on a partial update and answers 404 for an unknown id', async () => {
    const id = (await create([{ full_name: 'Partial', company: 'Keep Co', job_title: 'Old' }])).json.data
      .contacts[0].id;
    const answer = await call('PUT', `/v1/contacts/${id}`, { body: { job_title: 'New', description: null } });
    expect(answer.json.data.contact).toMatchObject({
      full_name: 'Partial',
      company: 'Keep Co',
      job_title: 'New',
      description: null,
    });
    expect((await call('PUT', `/v1/contacts/${UNKNOWN_ID}`, { body: { job_title: 'x' } })).status).toBe(404);
  });
});

describe('E1 bulk update', () => {
  it('skips unknown ids and counts the updated ones', async () => {
    const ids = (await create([{ full_name: 'Bulk 1' }, { full_name: 'Bulk 2' }])).json.data.contacts.map(
      (c: { id: string }) => c.id,
    );
    const answer = await call('PUT', '/v1/contacts/', {
      body: [
        { contactId: ids[0], data: { job_title: 'T1' } },
        { contactId: UNKNOWN_ID, data: { job_title: 'nobody' } },
        { contactId: ids[1], data: { job_title: 'T2', is_archived: true } },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ error: false, data: { count: 2 } });
    expect((await local(ids[0])).job_title).toBe('T1');
    expect(await local(ids[1])).toMatchObject({ job_title: 'T2', is_archived: true });
  });

  it('applies nothing when any element is bad, even a bad reference found while applying', async () => {
    const ids = (await create([{ full_name: 'Atomic 1' }, { full_name: 'Atomic 2' }])).json.data.contacts.map(
      (c: { id: string }) => c.id,
    );
    const answer = await call('PUT', '/v1/contacts/', {
      body: [
        {
          contactId: ids[0],
          data: { job_title: 'should roll back', contact_emails: [{ email: 'rollback@x.test' }] },
        },
        { contactId: ids[1], data: { groups_contacts: [{ group_id: UNKNOWN_ID }] } },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.json.data.details).toEqual([
      expect.objectContaining({ path: '1.data.groups_contacts.0.group_id', index: 1 }),
    ]);
    const first = await local(ids[0]);
    expect(first.job_title).toBeNull();
    expect(first.contact_emails).toEqual([]);
  });

  it('creates and updates 100 contacts per request', async () => {
    const contacts = Array.from({ length: 100 }, (_, i) => ({
      full_name: `Many ${i}`,
      contact_emails: [{ email: `many${i}@x.test` }],
      contact_phone_numbers: [
        { phone_number: `+1 202 555 ${String(1000 + i)}`, phone_number_sanitized: `+1202555${1000 + i}` },
      ],
    }));
    const created = await create(contacts);
    const ids: string[] = created.json.data.contacts.map((c: { id: string }) => c.id);
    expect(ids).toHaveLength(100);
    const updated = await call('PUT', '/v1/contacts/', {
      body: ids.map((contactId, i) => ({ contactId, data: { company: `Co ${i}` } })),
    });
    expect(updated.json.data.count).toBe(100);
    expect((await local(ids[99] as string)).company).toBe('Co 99');
  });
});

describe('E11 older update', () => {
  it('applies changes and replaces e-mails and phones only when the flags say so', async () => {
    const id = (
      await create([
        {
          full_name: 'Legacy',
          contact_emails: [{ email: 'old1@x.test' }, { email: 'old2@x.test' }],
          contact_phone_numbers: [{ phone_number: '+1 202 555 0199' }],
        },
      ])
    ).json.data.contacts[0].id;

    const keep = await call('PUT', `/api/rest/contacts/${id}`, {
      body: {
        update_contact_emails: false,
        contact_emails: [{ contact_id: id, email: 'ignored@x.test' }],
        changes: { job_title: 'Legacy Title', website: null },
      },
    });
    expect(keep.status).toBe(200);
    expect(keep.json.data.contact).toMatchObject({ id, job_title: 'Legacy Title' });
    let stored = await local(id);
    expect(stored.contact_emails.map((e: { email: string }) => e.email)).toEqual([
      'old1@x.test',
      'old2@x.test',
    ]);

    await call('PUT', `/api/rest/contacts/${id}`, {
      body: { update_contact_emails: true, contact_emails: [{ contact_id: id, email: 'new@x.test' }] },
    });
    stored = await local(id);
    expect(stored.contact_emails.map((e: { email: string }) => e.email)).toEqual(['new@x.test']);
    expect(stored.contact_phone_numbers).toHaveLength(1);

    await call('PUT', `/api/rest/contacts/${id}`, {
      body: {
        update_contact_phone_numbers: true,
        contact_phone_numbers: [{ contact_id: id, phone_number: '+44 20 7946 0001', label: 'work' }],
      },
    });
    stored = await local(id);
    expect(stored.contact_phone_numbers).toEqual([
      expect.objectContaining({ phone_number: '+44 20 7946 0001', label: 'work' }),
    ]);
    expect(stored.contact_emails.map((e: { email: string }) => e.email)).toEqual(['new@x.test']);
    expect(stored.job_title).toBe('Legacy Title');

    const mismatch = await call('PUT', `/api/rest/contacts/${id}`, {
      body: { contactId: UNKNOWN_ID, changes: { job_title: 'x' } },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.data.details[0].path).toBe('contactId');
  });
});

it('refuses a chunked body over 5 MB (no Content-Length) while it streams', async () => {
  async function* chunks() {
    yield Buffer.from('{"contacts":[{"description":"');
    for (let i = 0; i < 7; i++) yield Buffer.alloc(1024 * 1024, 0x61);
    yield Buffer.from('"}]}');
  }
  const res = await request(`${service.url}/v1/contacts/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKeys[0]}`, 'content-type': 'application/json' },
    body: Readable.from(chunks()),
  });
  expect(res.statusCode).toBe(413);
  expect(((await res.body.json()) as { data: { code: string } }).data.code).toBe('payload_too_large');
  const found = await call('GET', '/v1/contacts/search?fullName=aaaa');
  expect(found.json.data.contacts).toEqual([]);
});

describe('contact ids (time-ordered)', () => {
  it('are distinct version 7 UUIDs in creation order, valid for the write schemas', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 50)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuid.safeParse(id).success).toBe(true);
    }
    // Ordered as created, so the list tables keyed by contact id are appended to.
    expect([...ids].sort()).toEqual(ids);
  });
});
