import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFieldResponseSchema } from '../../../src/core/schemas/custom-field.js';
import { groupResponseSchema } from '../../../src/core/schemas/group.js';
import { reminderResponseSchema } from '../../../src/core/schemas/reminder.js';
import type { LocalService } from '../../../src/server/index.js';
import { UNKNOWN_ID, caller, startTestService } from './http.js';

let service: LocalService;
let call: ReturnType<typeof caller>;
let contactA: string;
let contactB: string;

beforeAll(async () => {
  service = await startTestService();
  call = caller(service);
  const created = await call('POST', '/v1/contacts/', {
    body: { contacts: [{ full_name: 'R A' }, { full_name: 'R B' }] },
  });
  [contactA, contactB] = created.json.data.contacts.map((c: { id: string }) => c.id);
});
afterAll(() => service.close());

describe('reminders E5/E6', () => {
  it('creates, reschedules, completes and reassigns a reminder', async () => {
    const created = await call('POST', '/v1/reminders/', {
      body: {
        reminder: {
          text: 'Call',
          due_at_date: '2030-01-01T09:00:00Z',
          recurrence: 'monthly',
          reminders_contacts: [{ contact_id: contactA }],
        },
      },
    });
    expect(created.status).toBe(200);
    const reminder = reminderResponseSchema.parse(created.json.data.reminder);
    expect(reminder).toMatchObject({ text: 'Call', recurrence: 'monthly', is_complete: false });

    const updated = await call('PUT', `/v1/reminders/${reminder.id}`, {
      body: {
        reminder: {
          due_at_date: '2030-02-01T09:00:00Z',
          is_complete: true,
          last_completed_at: '2030-01-02T10:00:00Z',
          email_sent: true,
          reminders_contacts: [{ contact_id: contactB }],
        },
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.data.reminder).toMatchObject({
      text: 'Call',
      due_at_date: '2030-02-01T09:00:00Z',
      is_complete: true,
      last_completed_at: '2030-01-02T10:00:00Z',
    });
    const stored = (await call('GET', '/_local/reminders')).json.data.reminders;
    expect(stored).toEqual([
      expect.objectContaining({
        id: reminder.id,
        email_sent: true,
        push_notification_sent: false,
        contact_ids: [contactB],
      }),
    ]);
    expect(
      (await call('PUT', `/v1/reminders/${UNKNOWN_ID}`, { body: { reminder: { text: 'x' } } })).status,
    ).toBe(404);
  });
});

describe('groups E7/E8', () => {
  it('creates with members and a parent, updates only the fields sent', async () => {
    const parent = groupResponseSchema.parse(
      (await call('POST', '/v1/groups/', { body: { group: { name: 'Parent' } } })).json.data.group,
    );
    const child = await call('POST', '/v1/groups/', {
      body: {
        group: {
          name: 'Child',
          emoji: '🙂',
          description: 'd',
          parent_id: parent.id,
          groups_contacts: [{ contact_id: contactA }],
        },
      },
    });
    expect(child.status).toBe(200);
    const group = groupResponseSchema.parse(child.json.data.group);
    expect(group.parent_group_id).toBe(parent.id);

    const renamed = await call('PUT', `/v1/groups/${group.id}`, { body: { group: { name: 'Renamed' } } });
    expect(renamed.json.data.group).toMatchObject({ name: 'Renamed', parent_group_id: parent.id });
    const stored = (await call('GET', '/_local/groups')).json.data.groups;
    expect(stored[1]).toMatchObject({
      name: 'Renamed',
      emoji: '🙂',
      description: 'd',
      contact_ids: [contactA],
    });
    expect((await call('GET', `/_local/contacts/${contactA}`)).json.data.contact.groups_contacts).toEqual([
      { group_id: group.id, name: 'Renamed' },
    ]);

    const badParent = await call('PUT', `/v1/groups/${group.id}`, {
      body: { group: { parent_id: UNKNOWN_ID } },
    });
    expect(badParent.status).toBe(400);
    expect(badParent.json.data.details[0].path).toBe('group.parent_id');
    const badMember = await call('POST', '/v1/groups/', {
      body: { group: { name: 'X', groups_contacts: [{ contact_id: UNKNOWN_ID }] } },
    });
    expect(badMember.status).toBe(400);
    expect((await call('GET', '/_local/groups')).json.data.groups).toHaveLength(2);
  });
});

describe('custom fields E9/E10', () => {
  it('defaults field_type to input and renames', async () => {
    const created = await call('POST', '/v1/custom-fields/', { body: { custom_field: { name: 'Team' } } });
    const field = customFieldResponseSchema.parse(created.json.data.custom_field);
    expect(field).toMatchObject({ name: 'Team', field_type: 'input', categories: [] });
    const updated = await call('PUT', `/v1/custom-fields/${field.id}`, {
      body: {
        custom_field: { name: 'Squad', field_type: 'autocomplete', categories: [{ category: 'red' }] },
      },
    });
    expect(updated.json.data.custom_field).toMatchObject({
      id: field.id,
      name: 'Squad',
      field_type: 'autocomplete',
      categories: [{ category: 'red' }],
    });
    expect((await call('GET', '/_local/custom-fields')).json.data.custom_fields).toEqual([
      updated.json.data.custom_field,
    ]);
    expect(
      (await call('PUT', `/v1/custom-fields/${UNKNOWN_ID}`, { body: { custom_field: { name: 'x' } } }))
        .status,
    ).toBe(404);
  });

  it('replays an idempotent E9 create', async () => {
    const headers = { 'idempotency-key': 'field-create-1' };
    const first = await call('POST', '/v1/custom-fields/', {
      body: { custom_field: { name: 'Once' } },
      headers,
    });
    const second = await call('POST', '/v1/custom-fields/', {
      body: { custom_field: { name: 'Once' } },
      headers,
    });
    expect(second.json).toEqual(first.json);
    const names = (await call('GET', '/_local/custom-fields')).json.data.custom_fields.map(
      (f: { name: string }) => f.name,
    );
    expect(names.filter((n: string) => n === 'Once')).toHaveLength(1);
  });
});

describe('/_local/contacts paging', () => {
  it('pages with take and cursor in creation order', async () => {
    await call('POST', '/v1/contacts/', {
      body: { contacts: Array.from({ length: 8 }, (_, i) => ({ full_name: `L${i}` })) },
    });
    const all = (await call('GET', '/_local/contacts')).json.data;
    expect(all.contacts).toHaveLength(10);
    expect(all.nextCursor).toBeUndefined();
    const first = (await call('GET', '/_local/contacts?take=4')).json.data;
    const second = (await call('GET', `/_local/contacts?take=4&cursor=${first.nextCursor}`)).json.data;
    const third = (await call('GET', `/_local/contacts?take=4&cursor=${second.nextCursor}`)).json.data;
    expect(
      [...first.contacts, ...second.contacts, ...third.contacts].map((c: { id: string }) => c.id),
    ).toEqual(all.contacts.map((c: { id: string }) => c.id));
    expect(third.nextCursor).toBeUndefined();
    expect((await call('GET', '/_local/contacts?take=0')).status).toBe(400);
  });
});
