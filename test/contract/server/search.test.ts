import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../../src/server/index.js';
import { caller, startTestService } from './http.js';

let service: LocalService;
let call: ReturnType<typeof caller>;
const PAGED = 45;

beforeAll(async () => {
  service = await startTestService();
  call = caller(service);
  const contacts = [
    { full_name: 'Zoë Ångström', company: 'Nordic Labs', contact_emails: [{ email: 'zoe@nordic.test' }] },
    { full_name: 'John Smith', company: 'Acme', contact_emails: [{ email: 'john@acme.test' }] },
    { full_name: 'Johnny Smithers', contact_emails: [{ email: 'jsmithers@other.test' }] },
    // A name column that held an address: the contact is Jane's, found by her own e-mail only.
    { full_name: 'info@desk.test', contact_emails: [{ email: 'jane@desk.test' }] },
    {
      first_name: 'Ann',
      last_name: 'Archived',
      is_archived: true,
      contact_emails: [{ email: 'ann@acme.test' }],
    },
    ...Array.from({ length: PAGED }, (_, i) => ({ full_name: `Paged Person ${String(i).padStart(2, '0')}` })),
  ];
  const answer = await call('POST', '/v1/contacts/', { body: { contacts } });
  expect(answer.status).toBe(200);
});
afterAll(() => service.close());

const names = (contacts: { full_name: string | null; last_name: string | null }[]) =>
  contacts.map((c) => c.full_name ?? c.last_name);

describe('E4 global search', () => {
  it('matches case-insensitively within names, e-mail and company, beyond ASCII', async () => {
    expect(names((await call('GET', '/v1/search/contacts?searchQuery=SMITH')).json.data)).toEqual([
      'John Smith',
      'Johnny Smithers',
    ]);
    expect(names((await call('GET', '/v1/search/contacts?searchQuery=%C3%A5ngstr')).json.data)).toEqual([
      'Zoë Ångström',
    ]);
    expect(names((await call('GET', '/v1/search/contacts?searchQuery=nordic%20labs')).json.data)).toEqual([
      'Zoë Ångström',
    ]);
    expect(names((await call('GET', '/v1/search/contacts?searchQuery=other.test')).json.data)).toEqual([
      'Johnny Smithers',
    ]);
  });

  it('with exactMatch requires equality with an e-mail or the full name', async () => {
    const exact = (q: string) =>
      call('GET', `/v1/search/contacts?exactMatch=true&searchQuery=${encodeURIComponent(q)}`);
    expect(names((await exact('JOHN@acme.test')).json.data)).toEqual(['John Smith']);
    expect(names((await exact('john smith')).json.data)).toEqual(['John Smith']);
    expect((await exact('john')).json.data).toEqual([]);
    expect((await exact('acme.test')).json.data).toEqual([]);
  });

  it('with exactMatch and an e-mail address matches e-mails only, never a full name', async () => {
    const exact = (q: string) =>
      call('GET', `/v1/search/contacts?exactMatch=true&searchQuery=${encodeURIComponent(q)}`);
    expect((await exact('info@desk.test')).json.data).toEqual([]);
    expect((await exact('INFO@desk.test')).json.data).toEqual([]);
    expect(names((await exact('jane@desk.test')).json.data)).toEqual(['info@desk.test']);
    // The same with has_groups (the SQL path rather than the index lookup).
    const inNoGroup = await call(
      'GET',
      '/v1/search/contacts?exactMatch=true&has_groups=false&searchQuery=info%40desk.test',
    );
    expect(inNoGroup.json.data).toEqual([]);
  });

  it('leaves archived contacts out unless archived=true', async () => {
    expect((await call('GET', '/v1/search/contacts?searchQuery=archived')).json.data).toEqual([]);
    expect(
      (await call('GET', '/v1/search/contacts?searchQuery=ann@acme.test&exactMatch=true')).json.data,
    ).toEqual([]);
    const withArchived = await call('GET', '/v1/search/contacts?searchQuery=archived&archived=true');
    expect(names(withArchived.json.data)).toEqual(['Archived']);
  });

  it('pages with take and an opaque cursor beside data, absent on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await call(
        'GET',
        `/v1/search/contacts?searchQuery=paged&take=20${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      expect(Array.isArray(answer.json.data)).toBe(true);
      seen.push(...names(answer.json.data).map(String));
      cursor = answer.json.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(
      Array.from({ length: PAGED }, (_, i) => `Paged Person ${String(i).padStart(2, '0')}`),
    );
  });

  it('defaults take to 20 and accepts 1000', async () => {
    const first = await call('GET', '/v1/search/contacts?searchQuery=paged');
    expect(first.json.data).toHaveLength(20);
    expect(typeof first.json.nextCursor).toBe('string');
    const all = await call('GET', '/v1/search/contacts?take=1000&archived=true');
    expect(all.json.data).toHaveLength(PAGED + 5);
    expect(all.json.nextCursor).toBeUndefined();
  });

  it('filters by has_groups', async () => {
    const group = (await call('POST', '/v1/groups/', { body: { group: { name: 'G' } } })).json.data.group.id;
    const john = (await call('GET', '/v1/search/contacts?searchQuery=john%20smith&exactMatch=true')).json
      .data[0].id;
    await call('PUT', `/v1/contacts/${john}`, { body: { groups_contacts: [{ group_id: group }] } });
    expect(names((await call('GET', '/v1/search/contacts?has_groups=true')).json.data)).toEqual([
      'John Smith',
    ]);
    const without = await call('GET', '/v1/search/contacts?has_groups=false&take=100');
    expect(names(without.json.data)).not.toContain('John Smith');
    expect(without.json.data).toHaveLength(PAGED + 3);
  });
});

describe('E3 search', () => {
  it('answers data.contacts with data.nextCursor, matching names and e-mails', async () => {
    const first = await call('GET', '/v1/contacts/search?fullName=paged&take=40');
    expect(first.json.data.contacts).toHaveLength(40);
    const second = await call(
      'GET',
      `/v1/contacts/search?fullName=paged&take=40&cursor=${first.json.data.nextCursor}`,
    );
    expect(second.json.data.contacts).toHaveLength(PAGED - 40);
    expect(second.json.data.nextCursor).toBeUndefined();
    expect(names((await call('GET', '/v1/contacts/search?fullName=jsmithers')).json.data.contacts)).toEqual([
      'Johnny Smithers',
    ]);
  });
});
