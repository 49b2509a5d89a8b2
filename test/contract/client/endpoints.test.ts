import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/** Every endpoint, E1 to E11 and the create, driven through the real client. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('contacts', () => {
  it('creates contacts in request order with ids', async () => {
    const created = await h.client.createContacts([
      { full_name: 'First One' },
      { full_name: 'Second Two' },
      { full_name: 'Third Three' },
    ]);
    expect(created.map((c) => c.full_name)).toEqual(['First One', 'Second Two', 'Third Three']);
    expect(new Set(created.map((c) => c.id)).size).toBe(3);
  });

  it('E1 reports the lower count when some ids are unknown', async () => {
    const [a, b] = await h.client.createContacts([{ full_name: 'Bulk A' }, { full_name: 'Bulk B' }]);
    const result = await h.client.bulkUpdateContacts([
      { contactId: a!.id, data: { company: 'Acme' } },
      { contactId: randomUUID(), data: { company: 'Ghost' } },
      { contactId: b!.id, data: { company: 'Acme' } },
      { contactId: randomUUID(), data: { company: 'Ghost' } },
    ]);
    expect(result).toEqual({ count: 2 });
    expect((await h.client.local.contact(a!.id)).company).toBe('Acme');
    expect((await h.client.local.contact(b!.id)).company).toBe('Acme');
  });

  it('E2 merges e-mails case-insensitively and phones by sanitized number', async () => {
    const [c] = await h.client.createContacts([
      { full_name: 'Merge Me', contact_emails: [{ email: 'Merge@Example.com', label: 'work', ranking: 1 }] },
    ]);
    await h.client.updateContact(c!.id, {
      contact_emails: [
        { email: 'merge@example.com', label: 'home' },
        { email: 'second@example.com', ranking: 2 },
      ],
      contact_phone_numbers: [{ phone_number: '+1 202-555-0143', phone_number_sanitized: '+12025550143' }],
    });
    await h.client.updateContact(c!.id, {
      contact_phone_numbers: [
        { phone_number: '(202) 555-0143', phone_number_sanitized: '+12025550143', label: 'mobile' },
      ],
    });
    const stored = await h.client.local.contact(c!.id);
    expect(stored.contact_emails.map((e) => [e.email.toLowerCase(), e.label])).toEqual([
      ['merge@example.com', 'home'],
      ['second@example.com', null],
    ]);
    expect(stored.contact_phone_numbers).toHaveLength(1);
    expect(stored.contact_phone_numbers[0]).toMatchObject({
      phone_number_sanitized: '+12025550143',
      label: 'mobile',
    });
  });

  it('E3 finds by partial name, e-mail or company and pages with nextCursor', async () => {
    const names = Array.from({ length: 5 }, (_, i) => ({
      full_name: `Pager Person ${i}`,
      company: 'Pagination Inc',
    }));
    await h.client.createContacts(names);
    await h.client.createContacts([
      { full_name: 'Other', contact_emails: [{ email: 'findme@pager.example' }] },
    ]);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.client.searchContacts({
        fullName: 'pager person',
        take: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.contacts.map((c) => c.full_name ?? ''));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 10);
    expect(seen.sort()).toEqual(names.map((n) => n.full_name).sort());
    expect(pages).toBe(3);
    expect(
      (await h.client.searchContacts({ fullName: 'FINDME@pager' })).contacts.map((c) => c.full_name),
    ).toEqual(['Other']);
    expect((await h.client.searchContacts({ fullName: 'pagination inc' })).contacts).toHaveLength(5);
  });

  it('E4 searches exactly by e-mail, excludes archived unless asked, and pages', async () => {
    const [x] = await h.client.createContacts([
      { full_name: 'Exact Match', contact_emails: [{ email: 'exact@match.example' }] },
      { full_name: 'Exact Matcher', contact_emails: [{ email: 'exact@match.example.org' }] },
    ]);
    const exact = await h.client.globalSearch({ searchQuery: 'EXACT@match.example', exactMatch: true });
    expect(exact.contacts.map((c) => c.id)).toEqual([x!.id]);
    expect((await h.client.globalSearch({ searchQuery: 'exact@match' })).contacts).toHaveLength(2);

    await h.client.updateContact(x!.id, { is_archived: true });
    expect(
      (await h.client.globalSearch({ searchQuery: 'exact@match.example', exactMatch: true })).contacts,
    ).toEqual([]);
    const archived = await h.client.globalSearch({
      searchQuery: 'exact@match.example',
      exactMatch: true,
      archived: true,
    });
    expect(archived.contacts.map((c) => c.id)).toEqual([x!.id]);

    const first = await h.client.globalSearch({ searchQuery: 'exact', take: 1, archived: true });
    expect(first.contacts).toHaveLength(1);
    expect(first.nextCursor).toBeDefined();
    const second = await h.client.globalSearch({
      searchQuery: 'exact',
      take: 1,
      archived: true,
      cursor: first.nextCursor!,
    });
    expect(second.contacts[0]?.id).not.toBe(first.contacts[0]?.id);
    expect(second.nextCursor).toBeUndefined();
  });
});

describe('E11, the older update', () => {
  it('replaces the e-mail and phone lists when the flags are true', async () => {
    const [c] = await h.client.createContacts([
      {
        full_name: 'Legacy Flags',
        contact_emails: [{ email: 'old1@example.com' }, { email: 'old2@example.com' }],
        contact_phone_numbers: [{ phone_number: '+1 202-555-0100', phone_number_sanitized: '+12025550100' }],
      },
    ]);
    const updated = await h.client.legacyUpdateContact(c!.id, {
      update_contact_emails: true,
      contact_emails: [{ contact_id: c!.id, email: 'new@example.com' }],
      update_contact_phone_numbers: true,
      contact_phone_numbers: [{ contact_id: c!.id, phone_number: '+1 202-555-0199', label: 'mobile' }],
      changes: { job_title: 'Archivist', website: null },
    });
    expect(updated).toMatchObject({ id: c!.id, job_title: 'Archivist', website: null });
    const stored = await h.client.local.contact(c!.id);
    expect(stored.contact_emails.map((e) => e.email)).toEqual(['new@example.com']);
    expect(stored.contact_phone_numbers.map((p) => [p.phone_number, p.label])).toEqual([
      ['+1 202-555-0199', 'mobile'],
    ]);
  });

  it('leaves both lists alone when the flags are false, even with lists sent', async () => {
    const [c] = await h.client.createContacts([
      {
        full_name: 'Legacy Keep',
        contact_emails: [{ email: 'keep@example.com' }],
        contact_phone_numbers: [{ phone_number: '+1 202-555-0111', phone_number_sanitized: '+12025550111' }],
      },
    ]);
    await h.client.legacyUpdateContact(c!.id, {
      update_contact_emails: false,
      contact_emails: [{ contact_id: c!.id, email: 'ignored@example.com' }],
      update_contact_phone_numbers: false,
      contact_phone_numbers: [{ contact_id: c!.id, phone_number: '+1 202-555-0999' }],
      changes: { first_name: 'Kept' },
    });
    const stored = await h.client.local.contact(c!.id);
    expect(stored.contact_emails.map((e) => e.email)).toEqual(['keep@example.com']);
    expect(stored.contact_phone_numbers.map((p) => p.phone_number)).toEqual(['+1 202-555-0111']);
    expect(stored.first_name).toBe('Kept');
  });
});

describe('reminders, groups and custom fields', () => {
  it('E5 creates and E6 updates a reminder linked to a contact', async () => {
    const [c] = await h.client.createContacts([{ full_name: 'Reminded' }]);
    const created = await h.client.createReminder({
      text: 'Call back',
      due_at_date: '2025-03-01T09:00:00Z',
      recurrence: 'monthly',
      reminders_contacts: [{ contact_id: c!.id }],
    });
    expect(created).toMatchObject({ text: 'Call back', recurrence: 'monthly', is_complete: false });
    const updated = await h.client.updateReminder(created.id, {
      is_complete: true,
      recurrence: 'yearly',
      last_completed_at: '2025-03-01T10:00:00Z',
    });
    expect(updated).toMatchObject({
      id: created.id,
      text: 'Call back',
      is_complete: true,
      recurrence: 'yearly',
    });
    const stored = (await h.client.local.reminders()).find((r) => r.id === created.id);
    expect(stored).toMatchObject({ is_complete: true, recurrence: 'yearly' });
    expect(JSON.stringify(stored)).toContain(c!.id);
  });

  it('E7 creates a group with members and E8 renames it', async () => {
    const [c] = await h.client.createContacts([{ full_name: 'Member' }]);
    const parent = await h.client.createGroup({ name: 'Parent' });
    const group = await h.client.createGroup({
      name: 'Child',
      emoji: '*',
      parent_id: parent.id,
      groups_contacts: [{ contact_id: c!.id }],
    });
    expect(group).toMatchObject({ name: 'Child', parent_group_id: parent.id });
    const renamed = await h.client.updateGroup(group.id, { name: 'Renamed child' });
    expect(renamed).toMatchObject({ id: group.id, name: 'Renamed child', parent_group_id: parent.id });
    const membership = (await h.client.local.contact(c!.id)).groups_contacts;
    expect(membership).toEqual([{ group_id: group.id, name: 'Renamed child' }]);
  });

  it('E9 creates a custom field and E10 renames it and changes its categories', async () => {
    const field = await h.client.createCustomField({
      name: 'Tier',
      field_type: 'autocomplete',
      categories: [{ category: 'gold' }],
    });
    expect(field).toMatchObject({
      name: 'Tier',
      field_type: 'autocomplete',
      categories: [{ category: 'gold' }],
    });
    const updated = await h.client.updateCustomField(field.id, {
      name: 'Level',
      categories: [{ category: 'gold' }, { category: 'silver' }],
    });
    expect(updated).toMatchObject({ id: field.id, name: 'Level', field_type: 'autocomplete' });
    expect(updated.categories.map((c) => c.category)).toEqual(['gold', 'silver']);
    expect((await h.client.local.customFields()).find((f) => f.id === field.id)?.name).toBe('Level');
  });
});
