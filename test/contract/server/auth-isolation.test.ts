import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../../src/server/index.js';
import { caller, startTestService, type Answer } from './http.js';

const KEY_A = 'user-a-key-0001';
const KEY_B = 'user-b-key-0002';

let service: LocalService;
let call: ReturnType<typeof caller>;
let contactId: string;
let groupId: string;
let fieldId: string;
let reminderId: string;

beforeAll(async () => {
  service = await startTestService({ apiKeys: [KEY_A, KEY_B] });
  call = caller(service);
  const created = await call('POST', '/v1/contacts/', {
    key: KEY_A,
    body: {
      contacts: [
        {
          full_name: 'Alice Private',
          company: 'Secret Co',
          contact_emails: [{ email: 'alice@private.test' }],
        },
      ],
    },
  });
  contactId = created.json.data.contacts[0].id;
  groupId = (await call('POST', '/v1/groups/', { key: KEY_A, body: { group: { name: 'A group' } } })).json
    .data.group.id;
  fieldId = (
    await call('POST', '/v1/custom-fields/', { key: KEY_A, body: { custom_field: { name: 'A field' } } })
  ).json.data.custom_field.id;
  reminderId = (
    await call('POST', '/v1/reminders/', {
      key: KEY_A,
      body: {
        reminder: {
          text: 'call',
          due_at_date: '2030-01-01T00:00:00Z',
          reminders_contacts: [{ contact_id: contactId }],
        },
      },
    })
  ).json.data.reminder.id;
});
afterAll(() => service.close());

const routes = (): [method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown][] => [
  ['POST', '/v1/contacts/', { contacts: [{ full_name: 'Intruder' }] }],
  ['PUT', '/v1/contacts/', [{ contactId, data: { job_title: 'Hacked' } }]],
  ['PUT', `/v1/contacts/${contactId}`, { job_title: 'Hacked' }],
  ['GET', '/v1/contacts/search?fullName=alice'],
  ['GET', '/v1/search/contacts?searchQuery=alice'],
  ['POST', '/v1/reminders/', { reminder: { text: 'x', due_at_date: '2030-01-01T00:00:00Z' } }],
  ['PUT', `/v1/reminders/${reminderId}`, { reminder: { text: 'Hacked' } }],
  ['POST', '/v1/groups/', { group: { name: 'Intruders' } }],
  ['PUT', `/v1/groups/${groupId}`, { group: { name: 'Hacked' } }],
  ['POST', '/v1/custom-fields/', { custom_field: { name: 'Intrusion' } }],
  ['PUT', `/v1/custom-fields/${fieldId}`, { custom_field: { name: 'Hacked' } }],
  ['PUT', `/api/rest/contacts/${contactId}`, { changes: { job_title: 'Hacked' } }],
  ['GET', '/_local/contacts'],
  ['GET', `/_local/contacts/${contactId}`],
  ['GET', '/_local/groups'],
  ['GET', '/_local/custom-fields'],
  ['GET', '/_local/reminders'],
  ['GET', '/no/such/route'],
];

const expectUnauthorized = (answer: Answer) => {
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({ error: true, data: { code: 'unauthorized' } });
};

describe('authentication', () => {
  it('refuses every route family without a key, with an unknown key and with a malformed header', async () => {
    for (const [method, path, body] of routes()) {
      expectUnauthorized(await call(method, path, { body, key: null }));
      expectUnauthorized(await call(method, path, { body, key: 'not-a-known-key' }));
      expectUnauthorized(
        await call(method, path, { body, key: null, headers: { authorization: `Basic ${KEY_A}` } }),
      );
      expectUnauthorized(await call(method, path, { body, key: `${KEY_A}x` }));
    }
  });

  it('changed nothing for the refused requests', async () => {
    const local = await call('GET', '/_local/contacts', { key: KEY_A });
    expect(local.json.data.contacts).toHaveLength(1);
    expect(local.json.data.contacts[0]).toMatchObject({ full_name: 'Alice Private', job_title: null });
    const groups = await call('GET', '/_local/groups', { key: KEY_A });
    expect(groups.json.data.groups.map((g: { name: string }) => g.name)).toEqual(['A group']);
  });

  it('registers further users at run time', async () => {
    const key = service.addUser();
    expect(service.apiKeys).toContain(key);
    const answer = await call('GET', '/_local/contacts', { key });
    expect(answer.status).toBe(200);
    expect(answer.json.data.contacts).toEqual([]);
  });
});

describe('isolation between users', () => {
  it("answers 404 to user B for each of user A's ids", async () => {
    const attempts: [string, unknown][] = [
      [`/v1/contacts/${contactId}`, { job_title: 'Hacked' }],
      [`/v1/reminders/${reminderId}`, { reminder: { text: 'Hacked' } }],
      [`/v1/groups/${groupId}`, { group: { name: 'Hacked' } }],
      [`/v1/custom-fields/${fieldId}`, { custom_field: { name: 'Hacked' } }],
      [`/api/rest/contacts/${contactId}`, { changes: { job_title: 'Hacked' } }],
    ];
    for (const [path, body] of attempts) {
      const answer = await call('PUT', path, { key: KEY_B, body });
      expect(answer.status, path).toBe(404);
      expect(answer.json.data.code).toBe('not_found');
    }
    expect((await call('GET', `/_local/contacts/${contactId}`, { key: KEY_B })).status).toBe(404);
  });

  it("counts 0 when user B bulk-updates user A's ids", async () => {
    const answer = await call('PUT', '/v1/contacts/', {
      key: KEY_B,
      body: [{ contactId, data: { job_title: 'Hacked' } }],
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data.count).toBe(0);
  });

  it("never shows user A's data to user B in search or inspection", async () => {
    const e3 = await call('GET', '/v1/contacts/search?fullName=alice', { key: KEY_B });
    expect(e3.json.data.contacts).toEqual([]);
    const e4 = await call('GET', '/v1/search/contacts?searchQuery=alice@private.test&exactMatch=true', {
      key: KEY_B,
    });
    expect(e4.json.data).toEqual([]);
    for (const path of ['/_local/contacts', '/_local/groups', '/_local/custom-fields', '/_local/reminders']) {
      const answer = await call('GET', path, { key: KEY_B });
      expect(answer.text, path).not.toContain('Alice');
      expect(answer.text, path).not.toContain(contactId);
      expect(answer.text, path).not.toContain(groupId);
    }
    // The same searches as A do find it, so the empty answers above are isolation, not a broken search.
    expect(
      (await call('GET', '/v1/contacts/search?fullName=alice', { key: KEY_A })).json.data.contacts,
    ).toHaveLength(1);
  });

  it("refuses references to another user's group, custom field or contact with a 400 naming the path", async () => {
    const own = await call('POST', '/v1/contacts/', {
      key: KEY_B,
      body: { contacts: [{ full_name: 'Bob' }] },
    });
    const bobId = own.json.data.contacts[0].id as string;
    const group = await call('PUT', `/v1/contacts/${bobId}`, {
      key: KEY_B,
      body: { groups_contacts: [{ group_id: groupId }] },
    });
    expect(group.status).toBe(400);
    expect(group.json.data.details[0].path).toBe('groups_contacts.0.group_id');
    const field = await call('PUT', `/v1/contacts/${bobId}`, {
      key: KEY_B,
      body: { custom_fields: [{ id: fieldId, text_value: 'x' }] },
    });
    expect(field.status).toBe(400);
    expect(field.json.data.details[0].path).toBe('custom_fields.0.id');
    const reminder = await call('POST', '/v1/reminders/', {
      key: KEY_B,
      body: {
        reminder: {
          text: 'x',
          due_at_date: '2030-01-01T00:00:00Z',
          reminders_contacts: [{ contact_id: contactId }],
        },
      },
    });
    expect(reminder.status).toBe(400);
    expect(reminder.json.data.details[0].path).toBe('reminder.reminders_contacts.0.contact_id');
    expect((await call('GET', '/_local/reminders', { key: KEY_B })).json.data.reminders).toEqual([]);
  });

  it('left user A data untouched after all of B attempts', async () => {
    const a = await call('GET', `/_local/contacts/${contactId}`, { key: KEY_A });
    expect(a.json.data.contact).toMatchObject({ job_title: null, full_name: 'Alice Private' });
    const reminders = await call('GET', '/_local/reminders', { key: KEY_A });
    expect(reminders.json.data.reminders[0]).toMatchObject({ text: 'call', contact_ids: [contactId] });
  });
});

it('binds loopback by default', () => {
  expect(new URL(service.url).hostname).toBe('127.0.0.1');
});
