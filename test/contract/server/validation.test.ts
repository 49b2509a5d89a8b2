import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/core/schemas/limits.js';
import type { LocalService } from '../../../src/server/index.js';
import { caller, startTestService } from './http.js';

const MAX_BULK = 20;
let service: LocalService;
let call: ReturnType<typeof caller>;
let contactId: string;

beforeAll(async () => {
  service = await startTestService({ maxBulk: MAX_BULK });
  call = caller(service);
  contactId = (await call('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Existing One' }] } }))
    .json.data.contacts[0].id;
});
afterAll(() => service.close());

const storedCount = async (): Promise<number> =>
  (await call('GET', '/_local/contacts')).json.data.contacts.length;
const storedOne = async () => (await call('GET', `/_local/contacts/${contactId}`)).json.data.contact;

describe('limits of the write schema: 400 naming the field', () => {
  it.each([
    ['website', { website: 'https://e.test/' + 'a'.repeat(LIMITS.websiteMaxLength) }],
    ['birthday_year', { birthday_year: LIMITS.birthdayYearMin - 1 }],
    ['birthday_year', { birthday_year: LIMITS.birthdayYearMax + 1 }],
    ['birthday_year', { birthday_year: 1990.5 }],
    ['source', { source: 'carrier_pigeon' }],
    ['frequency', { frequency: 'every day' }],
    ['mail_last_interaction_provider', { mail_last_interaction_provider: 'PROVIDER_Z' }],
    ['birthday', { birthday: '03/04/1990' }],
    ['last_seen_at', { last_seen_at: 'yesterday' }],
    ['starred', { starred: 'yes' }],
    ['contact_emails.0.email', { contact_emails: [{ email: 1 }] }],
    ['nickname', { nickname: 'unknown field' }],
  ])('E2 refuses a bad %s', async (path, body) => {
    const answer = await call('PUT', `/v1/contacts/${contactId}`, { body });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: true, data: { code: 'invalid_body' } });
    expect(answer.json.data.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(answer.json.data.message).toContain(path);
  });

  it('accepts the boundary values exactly', async () => {
    const website = 'https://e.test/' + 'a'.repeat(LIMITS.websiteMaxLength - 'https://e.test/'.length);
    const answer = await call('PUT', `/v1/contacts/${contactId}`, {
      body: { website, birthday_year: LIMITS.birthdayYearMax },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data.contact.website).toHaveLength(LIMITS.websiteMaxLength);
    expect((await storedOne()).birthday_year).toBe(LIMITS.birthdayYearMax);
  });

  it('names the element path and index in a create and in E1', async () => {
    const contacts = [{ full_name: 'ok' }, { full_name: 'ok' }, { full_name: 'ok' }, { birthday_year: 1850 }];
    const before = await storedCount();
    const create = await call('POST', '/v1/contacts/', { body: { contacts } });
    expect(create.status).toBe(400);
    expect(create.json.data.details).toEqual([
      expect.objectContaining({ path: 'contacts.3.birthday_year', index: 3 }),
    ]);
    expect(await storedCount()).toBe(before);

    const e1 = await call('PUT', '/v1/contacts/', {
      body: [
        { contactId, data: { job_title: 'fine' } },
        { contactId, data: { website: 7 } },
      ],
    });
    expect(e1.status).toBe(400);
    expect(e1.json.data.details).toEqual([expect.objectContaining({ path: '1.data.website', index: 1 })]);
    expect((await storedOne()).job_title).toBeNull();
  });

  it('refuses bad query values of the searches with invalid_query', async () => {
    for (const query of [
      'take=0',
      'take=1001',
      'take=1.5',
      'take=abc',
      'archived=maybe',
      'exactMatch=1',
      'unknown=1',
      'cursor=bogus',
    ]) {
      const answer = await call('GET', `/v1/search/contacts?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.data.code).toBe('invalid_query');
      expect(answer.json.data.details[0].path, query).toBe(query.split('=')[0]);
    }
    expect((await call('GET', '/v1/contacts/search?take=0')).status).toBe(400);
  });

  it('refuses a path id that is not a UUID', async () => {
    const answer = await call('PUT', '/v1/contacts/not-a-uuid', { body: { job_title: 'x' } });
    expect(answer.status).toBe(400);
    expect(answer.json.data).toMatchObject({ code: 'invalid_path', details: [{ path: 'contactId' }] });
  });
});

describe('size limits: 413', () => {
  it('refuses a body over 5 MB while it streams, without storing anything', async () => {
    const before = await storedCount();
    const big = JSON.stringify({ contacts: [{ full_name: 'x', description: 'd'.repeat(6 * 1024 * 1024) }] });
    const answer = await call('POST', '/v1/contacts/', { raw: big });
    expect(answer.status).toBe(413);
    expect(answer.json.data.code).toBe('payload_too_large');
    expect(await storedCount()).toBe(before);
  });

  it('refuses more bulk elements than maxBulk before validating them, and takes exactly maxBulk', async () => {
    const tooMany = Array.from({ length: MAX_BULK + 1 }, () => ({ contactId: 'not even a uuid', data: {} }));
    const e1 = await call('PUT', '/v1/contacts/', { body: tooMany });
    expect(e1.status).toBe(413);
    expect(e1.json.data.code).toBe('payload_too_large');

    const before = await storedCount();
    const create = await call('POST', '/v1/contacts/', {
      body: { contacts: Array.from({ length: MAX_BULK + 1 }, (_, i) => ({ full_name: `n${i}` })) },
    });
    expect(create.status).toBe(413);
    expect(await storedCount()).toBe(before);

    const exact = await call('POST', '/v1/contacts/', {
      body: { contacts: Array.from({ length: MAX_BULK }, (_, i) => ({ full_name: `n${i}` })) },
    });
    expect(exact.status).toBe(200);
    expect(await storedCount()).toBe(before + MAX_BULK);
  });
});

describe('hostile bodies: a clear 4xx, never a 500, nothing stored', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
  const cases: [
    name: string,
    send: () => Promise<Awaited<ReturnType<typeof call>>>,
    status: number,
    code: string,
  ][] = [
    ['invalid JSON', () => call('POST', '/v1/contacts/', { raw: '{"contacts": [' }), 400, 'invalid_json'],
    ['an empty JSON body', () => call('POST', '/v1/contacts/', { raw: '' }), 400, 'invalid_json'],
    ['a JSON scalar', () => call('POST', '/v1/contacts/', { raw: '42' }), 400, 'invalid_body'],
    ['null', () => call('PUT', `/v1/contacts/${contactId}`, { raw: 'null' }), 400, 'invalid_body'],
    [
      'wrong types',
      () => call('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 5, starred: 'no' }] } }),
      400,
      'invalid_body',
    ],
    [
      'contacts not an array',
      () => call('POST', '/v1/contacts/', { body: { contacts: { full_name: 'x' } } }),
      400,
      'invalid_body',
    ],
    [
      'an unknown enum value',
      () => call('POST', '/v1/contacts/', { body: { contacts: [{ source: 'fax' }] } }),
      400,
      'invalid_body',
    ],
    [
      'a prototype key',
      () => call('POST', '/v1/contacts/', { raw: '{"contacts":[{"__proto__":{"admin":true}}]}' }),
      400,
      'invalid_body',
    ],
    [
      '100,000 nested arrays',
      () => call('POST', '/v1/contacts/', { raw: deep(100_000) }),
      400,
      'invalid_body',
    ],
    [
      '100,000 nested arrays in E1',
      () => call('PUT', '/v1/contacts/', { raw: deep(100_000) }),
      400,
      'invalid_body',
    ],
    [
      'deeply nested objects in an opaque field',
      () => call('PUT', `/v1/contacts/${contactId}`, { raw: `{"worknet_data":${deepObject(50_000)}}` }),
      400,
      'invalid_body',
    ],
    [
      'a 10 MB body',
      () => call('POST', '/v1/contacts/', { raw: Buffer.alloc(10 * 1024 * 1024, 0x20) }),
      413,
      'payload_too_large',
    ],
    [
      'text/plain',
      () => call('POST', '/v1/contacts/', { raw: 'full_name=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    ],
    [
      'a form body',
      () =>
        call('POST', '/v1/contacts/', {
          raw: 'a=1',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      415,
      'unsupported_media_type',
    ],
    [
      'E11 with a wrong type',
      () => call('PUT', `/api/rest/contacts/${contactId}`, { body: { update_contact_emails: 'yes' } }),
      400,
      'invalid_body',
    ],
    [
      'E5 with an unknown recurrence',
      () =>
        call('POST', '/v1/reminders/', {
          body: { reminder: { text: 't', due_at_date: '2030-01-01T00:00:00Z', recurrence: 'hourly' } },
        }),
      400,
      'invalid_body',
    ],
    [
      'E9 with an unknown field_type',
      () =>
        call('POST', '/v1/custom-fields/', { body: { custom_field: { name: 'n', field_type: 'checkbox' } } }),
      400,
      'invalid_body',
    ],
    ['E7 without a name', () => call('POST', '/v1/groups/', { body: { group: {} } }), 400, 'invalid_body'],
  ];

  it.each(cases)('%s', async (_name, send, status, code) => {
    const before = await (await call('GET', '/_local/contacts')).text;
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ error: true, data: { code } });
    expect(typeof answer.json.data.message).toBe('string');
    expect((await call('GET', '/_local/contacts')).text).toBe(before);
    expect((await call('GET', '/_local/reminders')).json.data.reminders).toEqual([]);
    expect((await call('GET', '/_local/groups')).json.data.groups).toEqual([]);
    expect((await call('GET', '/_local/custom-fields')).json.data.custom_fields).toEqual([]);
  });
});
