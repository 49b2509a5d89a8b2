import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../../src/server/index.js';
import { CAP, emails, hugeContact, updatesOfOne } from './heavy-lists.js';
import { caller, startTestService } from './http.js';

describe('list merges and the per-contact cap', () => {
  let service: LocalService;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    service = await startTestService();
    call = caller(service);
  });
  afterAll(() => service.close());

  const create = async (write: Record<string, unknown>): Promise<string> => {
    const answer = await call('POST', '/v1/contacts/', { body: { contacts: [write] } });
    expect(answer.status).toBe(200);
    return answer.json.data.contacts[0].id as string;
  };
  const stored = async (id: string) => (await call('GET', `/_local/contacts/${id}`)).json.data.contact;
  const group = async (name: string): Promise<string> =>
    (await call('POST', '/v1/groups/', { body: { group: { name } } })).json.data.group.id as string;

  it('merges e-mails by lowercased address, phones by sanitized number, memberships once, in first-seen order', async () => {
    const [g1, g2] = [await group('one'), await group('two')];
    const id = await create({
      contact_emails: [{ email: 'Ann@Example.test' }, { email: 'b@example.test' }],
      contact_phone_numbers: [{ phone_number: '+1 555 0100', phone_number_sanitized: '+15550100' }],
      groups_contacts: [{ group_id: g1 }],
    });
    const e1 = await call('PUT', '/v1/contacts/', {
      body: [
        {
          contactId: id,
          data: {
            contact_emails: [{ email: 'ann@EXAMPLE.test', label: 'work' }, { email: 'c@example.test' }],
            contact_phone_numbers: [
              { phone_number: '(555) 0100', phone_number_sanitized: '+15550100', label: 'mobile' },
            ],
            groups_contacts: [{ group_id: g1 }, { group_id: g2 }],
          },
        },
        { contactId: id, data: { contact_emails: [{ email: 'C@example.test', ranking: 1 }] } },
      ],
    });
    expect(e1.status).toBe(200);
    expect(e1.json.data.count).toBe(2);
    const contact = await stored(id);
    expect(contact.contact_emails).toEqual([
      { email: 'Ann@Example.test', label: 'work', ranking: null },
      { email: 'b@example.test', label: null, ranking: null },
      { email: 'c@example.test', label: null, ranking: 1 },
    ]);
    expect(contact.contact_phone_numbers).toEqual([
      expect.objectContaining({
        phone_number: '(555) 0100',
        phone_number_sanitized: '+15550100',
        label: 'mobile',
      }),
    ]);
    expect(contact.groups_contacts.map((m: { group_id: string }) => m.group_id)).toEqual([g1, g2]);
  });

  it('holds exactly the cap and refuses the entry beyond it, naming the field and the element', async () => {
    const full = await create({ full_name: 'Full', contact_emails: emails(CAP, 'full') });
    const bystander = await create({ full_name: 'Bystander' });
    expect((await stored(full)).contact_emails).toHaveLength(CAP);

    const over = await call('PUT', '/v1/contacts/', {
      body: [
        { contactId: bystander, data: { job_title: 'changed' } },
        { contactId: full, data: { contact_emails: [{ email: 'one-more@list.test' }] } },
      ],
    });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ error: true, data: { code: 'invalid_body' } });
    expect(over.json.data.details).toEqual([
      expect.objectContaining({ path: '1.data.contact_emails', index: 1 }),
    ]);
    expect(over.json.data.message).toContain('1,000');
    // All or nothing: the first element is rolled back with the second.
    expect((await stored(bystander)).job_title).toBeNull();
    expect((await stored(full)).contact_emails).toHaveLength(CAP);

    // Sending entries it already holds (in another case) adds nothing: allowed at the cap.
    const again = emails(CAP, 'FULL');
    expect((await call('PUT', `/v1/contacts/${full}`, { body: { contact_emails: again } })).status).toBe(200);
  });

  it('refuses a list longer than the cap in one write, for every list field', async () => {
    const tooMany = await call('POST', '/v1/contacts/', {
      body: { contacts: [{ full_name: 'ok' }, { contact_emails: emails(CAP + 1, 'many') }] },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.data.details).toEqual([
      expect.objectContaining({ path: 'contacts.1.contact_emails', index: 1 }),
    ]);
    const id = await create({ full_name: 'Phones' });
    const phones = Array.from({ length: CAP + 1 }, (_, i) => ({
      phone_number: `+1555${String(i).padStart(7, '0')}`,
    }));
    const e2 = await call('PUT', `/v1/contacts/${id}`, { body: { contact_phone_numbers: phones } });
    expect(e2.status).toBe(400);
    expect(e2.json.data.details[0].path).toBe('contact_phone_numbers');
    const tags = Array.from({ length: CAP + 1 }, (_, i) => ({
      tag_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    }));
    const tagged = await call('PUT', `/v1/contacts/${id}`, { body: { tags_contacts: { append: tags } } });
    expect(tagged.status).toBe(400);
    expect(tagged.json.data.details[0].path).toBe('tags_contacts.append');
    expect((await stored(id)).contact_phone_numbers).toEqual([]);
  });
});

// The same requests with their latency, and the latency of another user meanwhile, are measured
// in test/perf/server-latency.test.ts (npm run test:perf). Before the linear merge the first took
// 830 s and the second 25 to 53 s: the test timeout alone catches a return of that.
describe('heavy list writes are answered, whole', () => {
  let service: LocalService;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    service = await startTestService();
    call = caller(service);
  });
  afterAll(() => service.close());
  const createOne = async (): Promise<string> =>
    (await call('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Target' }] } })).json.data
      .contacts[0].id as string;

  it('answers E1 with 500 elements x 220 e-mails on one contact with 400', async () => {
    const id = await createOne();
    const result = await call('PUT', '/v1/contacts/', { body: updatesOfOne(id, 220, 'e') });
    expect(result.status).toBe(400);
    expect(result.json.data.details).toEqual([
      expect.objectContaining({ path: '4.data.contact_emails', index: 4 }),
    ]);
    expect((await call('GET', `/_local/contacts/${id}`)).json.data.contact.contact_emails).toEqual([]);
  });

  it('refuses one contact with 20,000 e-mails', async () => {
    const result = await call('POST', '/v1/contacts/', { body: hugeContact() });
    expect(result.status).toBe(400);
    expect(result.json.data.details[0]).toMatchObject({ path: 'contacts.0.contact_emails', index: 0 });
  });

  it('merges 500 elements on one contact up to the cap in one request', async () => {
    const id = await createOne();
    const result = await call('PUT', '/v1/contacts/', { body: updatesOfOne(id, 2, 'm') });
    expect(result.status).toBe(200);
    expect(result.json.data.count).toBe(500);
    const stored = (await call('GET', `/_local/contacts/${id}`)).json.data.contact.contact_emails;
    expect(stored).toHaveLength(CAP);
    expect(stored[0].email).toBe('m0-0@list.test');
    expect(stored[CAP - 1].email).toBe('m499-1@list.test');
  });
});
