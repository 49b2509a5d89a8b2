import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../../../src/client/index.js';
import type { LocalClient } from '../../support/local-client.js';
import { KEY_A, KEY_B, rejectionOf, startHarness, type Harness } from './harness.js';

/** 401 without or with a wrong key on every endpoint; another user's ids are 404 (or not counted). */
let h: Harness;
let other: LocalClient;
const ids = { contact: '', reminder: '', group: '', field: '' };
beforeAll(async () => {
  h = await startHarness({}, { retries: 0 });
  other = h.clientFor(KEY_B);
  const [contact] = await h.client.createContacts([
    { full_name: 'Private Person', contact_emails: [{ email: 'p@example.com' }] },
  ]);
  ids.contact = contact!.id;
  ids.reminder = (await h.client.createReminder({ text: 'Ping', due_at_date: '2025-02-01T09:00:00Z' })).id;
  ids.group = (await h.client.createGroup({ name: 'Secret club' })).id;
  ids.field = (await h.client.createCustomField({ name: 'Codename' })).id;
});
afterAll(async () => {
  await h.close();
});

/** One call per endpoint (and each /_local/ route), on the given client. */
const everyEndpoint = (c: LocalClient): [string, () => Promise<unknown>][] => [
  ['create', () => c.createContacts([{ full_name: 'X' }])],
  ['E1', () => c.bulkUpdateContacts([{ contactId: ids.contact, data: { starred: true } }])],
  ['E2', () => c.updateContact(ids.contact, { starred: true })],
  ['E3', () => c.searchContacts({ fullName: 'Private' })],
  ['E4', () => c.globalSearch({ searchQuery: 'Private' })],
  ['E5', () => c.createReminder({ text: 'x', due_at_date: '2025-02-01T09:00:00Z' })],
  ['E6', () => c.updateReminder(ids.reminder, { is_complete: true })],
  ['E7', () => c.createGroup({ name: 'G' })],
  ['E8', () => c.updateGroup(ids.group, { name: 'G2' })],
  ['E9', () => c.createCustomField({ name: 'F' })],
  ['E10', () => c.updateCustomField(ids.field, { name: 'F2' })],
  ['E11', () => c.legacyUpdateContact(ids.contact, { changes: { job_title: 'Spy' } })],
  ['local contacts', () => c.local.contacts()],
  ['local contact', () => c.local.contact(ids.contact)],
  ['local groups', () => c.local.groups()],
  ['local custom fields', () => c.local.customFields()],
  ['local reminders', () => c.local.reminders()],
];

describe('authentication', () => {
  it('answers 401 to a wrong key on every endpoint, and changes nothing', async () => {
    const wrongKey = 'contract-key-wrong-ffffffffffff';
    const stranger = h.clientFor(wrongKey);
    for (const [name, call] of everyEndpoint(stranger)) {
      const error = await rejectionOf(call());
      expect(error, name).toBeInstanceOf(RequestError);
      expect((error as RequestError).status, name).toBe(401);
      expect((error as RequestError).code, name).toBe('unauthorized');
      expect((error as RequestError).retryable, name).toBe(false);
      expect(error.message, name).not.toContain(wrongKey);
    }
    expect(stranger.stats()).toMatchObject({ retried: 0, failed: everyEndpoint(stranger).length });
    const mine = await h.client.local.contact(ids.contact);
    expect(mine.job_title).toBeNull();
    expect(mine.starred).toBe(false);
  });

  it('answers 401 without an Authorization header, on v1, E11 and /_local/', async () => {
    for (const [method, path] of [
      ['GET', '/v1/contacts/search'],
      ['PUT', `/v1/contacts/${ids.contact}`],
      ['PUT', `/api/rest/contacts/${ids.contact}`],
      ['GET', '/_local/contacts'],
    ] as const) {
      const res = await request(`${h.service.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'PUT' ? { body: '{}' } : {}),
      });
      const body = (await res.body.json()) as { error: boolean; data: { code: string } };
      expect(res.statusCode, path).toBe(401);
      expect(body).toMatchObject({ error: true, data: { code: 'unauthorized' } });
    }
  });
});

describe('isolation between users', () => {
  it("answers 404 to another user's ids", async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ['E2', () => other.updateContact(ids.contact, { starred: true })],
      ['E6', () => other.updateReminder(ids.reminder, { is_complete: true })],
      ['E8', () => other.updateGroup(ids.group, { name: 'Taken' })],
      ['E10', () => other.updateCustomField(ids.field, { name: 'Taken' })],
      ['E11', () => other.legacyUpdateContact(ids.contact, { changes: { job_title: 'Spy' } })],
      ['local contact', () => other.local.contact(ids.contact)],
    ];
    for (const [name, call] of calls) {
      const error = await rejectionOf(call());
      expect((error as RequestError).status, name).toBe(404);
      expect((error as RequestError).code, name).toBe('not_found');
    }
    expect((await h.client.local.groups()).find((g) => g.id === ids.group)?.name).toBe('Secret club');
    expect((await h.client.local.customFields()).find((f) => f.id === ids.field)?.name).toBe('Codename');
  });

  it("skips another user's ids in E1 and does not show them in search or /_local/", async () => {
    await expect(
      other.bulkUpdateContacts([{ contactId: ids.contact, data: { starred: true } }]),
    ).resolves.toEqual({ count: 0 });
    expect((await h.client.local.contact(ids.contact)).starred).toBe(false);
    expect((await other.searchContacts({ fullName: 'Private' })).contacts).toEqual([]);
    expect((await other.globalSearch({ searchQuery: 'p@example.com' })).contacts).toEqual([]);
    expect((await other.local.contacts()).map((c) => c.id)).not.toContain(ids.contact);
    expect((await other.local.reminders()).map((r) => r.id)).not.toContain(ids.reminder);
  });

  it("refuses a reference to another user's group or custom field with a 400 naming it", async () => {
    const [mine] = await other.createContacts([{ full_name: 'B contact' }]);
    const error = (await rejectionOf(
      other.updateContact(mine!.id, { groups_contacts: [{ group_id: ids.group }] }),
    )) as RequestError;
    expect(error.status).toBe(400);
    expect(error.details.map((d) => d.path)).toContain('groups_contacts.0.group_id');
  });

  it('sees the key of user A in no answer given to user B', async () => {
    const error = await rejectionOf(other.updateContact(ids.contact, { starred: true }));
    expect(JSON.stringify(error)).not.toContain(KEY_A);
    expect(error.message).not.toContain(KEY_B);
  });
});
