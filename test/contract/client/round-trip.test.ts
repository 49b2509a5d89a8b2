import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_WRITE_FIELDS, type ContactWrite } from '../../../src/core/schemas/index.js';
import { startHarness, type Harness } from './harness.js';

/** Every field of the contact write shape survives a create and an update, read back via /_local/. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const TAG_1 = '0b8a1f9e-1c2d-4e3f-8a9b-0c1d2e3f4a5b';
const TAG_2 = '1c9b2a0f-2d3e-4f5a-9b0c-1d2e3f4a5b6c';

function fullContact(refs: { groupId: string; fieldId: string; otherId: string }): Required<ContactWrite> {
  return {
    full_name: 'Ada King Lovelace',
    first_name: 'Ada',
    last_name: 'Lovelace',
    description: 'Wrote the first program',
    job_title: 'Analyst',
    company: 'Analytical Engines Ltd',
    education: 'Private tutors',
    legacy_location: 'London',
    starred: true,
    source: 'csv_import',
    coordinates: { operation: 'set', data: { latitude: 51.5074, longitude: -0.1278 } },
    image_url: 'https://img.example.com/ada.png',
    image_source: 'https://img.example.com/',
    business_card_url: 'https://cards.example.com/ada.pdf',
    website: 'https://ada.example.com',
    birthday: '1815-12-10',
    birthday_year: 1915,
    frequency: '3 mons',
    last_seen_at: '2024-05-01T10:00:00.000Z',
    never_keep_in_touch: false,
    next_reminder_at: '2025-06-01T09:30:00+02:00',
    worknet: 'worknet.example/ada',
    microblog: '@ada',
    socialnet: 'socialnet.example/ada',
    photonet: 'ada.pics',
    chatapp: 'ada#1815',
    clipnet: 'clipnet.example/ada',
    videonet: 'videonet.example/ada',
    msgapp_message_link: 'https://msgapp.example/m/1',
    devmsg_message_link: 'https://devmsg.example/m/2',
    worknet_message_link: 'https://worknet.example/m/3',
    photonet_message_link: 'https://photonet.example/m/4',
    msgapp_message_snippet: 'See you at the engine',
    devmsg_message_snippet: 'PR merged',
    worknet_last_message_snippet: 'Congrats on the new role',
    photonet_message_snippet: 'Nice photo',
    msgapp_last_message_at: '2024-04-01T08:00:00.000Z',
    devmsg_last_message_at: '2024-04-02T08:00:00.000Z',
    worknet_last_message_at: '2024-04-03T08:00:00.000Z',
    photonet_last_message_at: '2024-04-04T08:00:00.000Z',
    worknet_data: { headline: 'Analyst', connections: 500, nested: { ok: true } },
    mail_last_interaction_at: '2024-03-01T12:00:00.000Z',
    mail_last_interaction_provider_id: 'mail-123',
    mail_last_interaction_subject: 'Notes on the engine',
    mail_last_interaction_provider: 'PROVIDER_A',
    cal_last_interaction_at: '2024-03-02T12:00:00.000Z',
    cal_last_interaction_provider_id: 'cal-456',
    cal_last_interaction_title: 'Tea',
    cal_last_interaction_provider: 'PROVIDER_B',
    phone_call_last_interaction_at: '2024-03-03T12:00:00.000Z',
    phone_call_interaction_snippet: 'Talked about Bernoulli numbers',
    web_search_summary: { summary: 'Mathematician', sources: ['a', 'b'] },
    legacy_contact_addresses: [{ formatted: '12 St James Sq, London' }],
    contact_emails: [
      { email: 'ada@example.com', label: 'work', ranking: 1 },
      { email: 'ada.home@example.org', label: 'home', ranking: 2 },
    ],
    contact_phone_numbers: [
      {
        phone_number: '+44 20 7946 0958',
        country_code: 'GB',
        phone_number_sanitized: '+442079460958',
        label: 'work',
        ranking: 1,
      },
    ],
    groups_contacts: [{ group_id: refs.groupId }],
    tags_contacts: { append: [{ tag_id: TAG_1 }, { tag_id: TAG_2 }] },
    custom_fields: [{ id: refs.fieldId, type: 'input', text_value: 'Countess' }],
    contact_birthdays: { contact_id: refs.otherId, last_dismissal_year: 2023 },
    is_archived: false,
    ignore_merge: true,
    related_contacts: { append: [{ destination: refs.otherId }] },
  };
}

/** Fields whose stored form is a list or list operation, compared by what they mean. */
const LIST_FIELDS = new Set([
  'contact_emails',
  'contact_phone_numbers',
  'groups_contacts',
  'tags_contacts',
  'custom_fields',
  'related_contacts',
]);

describe('contact write shape round-trip', () => {
  let refs: { groupId: string; fieldId: string; otherId: string };
  let write: Required<ContactWrite>;

  beforeAll(async () => {
    const group = await h.client.createGroup({ name: 'Mathematicians' });
    const field = await h.client.createCustomField({ name: 'Title', field_type: 'input' });
    const [other] = await h.client.createContacts([{ full_name: 'Charles Babbage' }]);
    refs = { groupId: group.id, fieldId: field.id, otherId: other!.id };
    write = fullContact(refs);
  });

  it('covers every field of the write schema', () => {
    expect(Object.keys(write).sort()).toEqual([...CONTACT_WRITE_FIELDS].sort());
  });

  function expectStored(stored: Record<string, unknown>, sent: Required<ContactWrite>) {
    for (const field of CONTACT_WRITE_FIELDS) {
      if (LIST_FIELDS.has(field)) continue;
      expect.soft(stored[field], field).toEqual(sent[field]);
    }
    expect(stored.contact_emails).toEqual(sent.contact_emails);
    expect(stored.contact_phone_numbers).toEqual(sent.contact_phone_numbers);
    expect(stored.groups_contacts).toEqual([{ group_id: refs.groupId, name: 'Mathematicians' }]);
    expect(stored.custom_fields).toEqual([{ id: refs.fieldId, name: 'Title', text_value: 'Countess' }]);
    expect(stored.tags_contacts).toEqual([{ tag_id: TAG_1 }, { tag_id: TAG_2 }]);
    expect(stored.related_contacts).toEqual([{ destination: refs.otherId }]);
  }

  it('stores every field sent on create (POST /v1/contacts/)', async () => {
    const [created] = await h.client.createContacts([write]);
    expect(created).toMatchObject({
      full_name: write.full_name,
      website: write.website,
      starred: true,
      source: 'csv_import',
    });
    expectStored(await h.client.local.contact(created!.id), write);
  });

  it('stores every field sent on update (E2), and lists them in /_local/contacts', async () => {
    const [blank] = await h.client.createContacts([{ full_name: 'Placeholder' }]);
    const updated = await h.client.updateContact(blank!.id, write);
    expect(updated.id).toBe(blank!.id);
    expect(updated.company).toBe(write.company);
    expectStored(await h.client.local.contact(blank!.id), write);
    const all = await h.client.local.contacts();
    expect(all.map((c) => c.id)).toContain(blank!.id);
  });

  it('stores every field sent in a bulk update (E1)', async () => {
    const [blank] = await h.client.createContacts([{ full_name: 'Bulk placeholder' }]);
    await expect(h.client.bulkUpdateContacts([{ contactId: blank!.id, data: write }])).resolves.toEqual({
      count: 1,
    });
    expectStored(await h.client.local.contact(blank!.id), write);
  });

  it('keeps omitted fields on a partial update and takes null where allowed', async () => {
    const [created] = await h.client.createContacts([write]);
    await h.client.updateContact(created!.id, { job_title: 'Countess', website: null, birthday_year: null });
    const stored = await h.client.local.contact(created!.id);
    expect(stored).toMatchObject({
      job_title: 'Countess',
      website: null,
      birthday_year: null,
      company: write.company,
    });
    expect(stored.contact_emails).toHaveLength(2);
  });
});
