import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '../../../src/client/index.js';
import { LIMITS, type ContactWrite } from '../../../src/core/schemas/index.js';
import { rejectionOf, startHarness, type Harness } from './harness.js';

/** Every limit of API.md and DESIGN.md is enforced with a 400 (or 413) whose details name the field. */
const MAX_BULK = 5;
let h: Harness;
let contactId: string;
beforeAll(async () => {
  h = await startHarness({ maxBulk: MAX_BULK }, { retries: 0 });
  const [contact] = await h.client.createContacts([{ full_name: 'Limit Tester' }]);
  contactId = contact!.id;
});
afterAll(async () => {
  await h.close();
});

async function requestError(promise: Promise<unknown>): Promise<RequestError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(RequestError);
  return error as RequestError;
}

async function expect400(promise: Promise<unknown>, path: string, index?: number) {
  const error = await requestError(promise);
  expect(error.status, error.message).toBe(400);
  expect(error.retryable).toBe(false);
  const detail = error.details.find((d) => d.path === path);
  expect(detail, `details ${JSON.stringify(error.details)} should name ${path}`).toBeDefined();
  if (index !== undefined) expect(detail?.index).toBe(index);
  expect(error.message).toContain(path);
  return error;
}

const tooLongWebsite = `https://example.com/${'a'.repeat(LIMITS.websiteMaxLength)}`;

describe('contact write limits on every write endpoint', () => {
  const cases: [string, ContactWrite][] = [
    ['website', { website: tooLongWebsite }],
    ['birthday_year', { birthday_year: LIMITS.birthdayYearMin - 1 }],
    ['birthday_year', { birthday_year: LIMITS.birthdayYearMax + 1 }],
    ['frequency', { frequency: 'every day' as ContactWrite['frequency'] }],
    ['source', { source: 'fax_import' as ContactWrite['source'] }],
    ['birthday', { birthday: '10/12/1815' }],
    ['image_url', { image_url: 'not a url' }],
    ['favourite_colour', { favourite_colour: 'teal' } as ContactWrite],
  ];

  for (const [field, data] of cases) {
    it(`refuses ${field}=${JSON.stringify(Object.values(data)[0]).slice(0, 30)} on create, E1 and E2`, async () => {
      await expect400(h.client.createContacts([{ full_name: 'ok' }, data]), `contacts.1.${field}`, 1);
      await expect400(
        h.client.bulkUpdateContacts([
          { contactId, data: { job_title: 'x' } },
          { contactId, data },
        ]),
        `1.data.${field}`,
        1,
      );
      await expect400(h.client.updateContact(contactId, data), field);
    });
  }

  it('accepts the boundary values and a website of exactly the maximum length', async () => {
    const website = `https://e.co/${'w'.repeat(LIMITS.websiteMaxLength - 'https://e.co/'.length)}`;
    expect(website).toHaveLength(LIMITS.websiteMaxLength);
    await h.client.updateContact(contactId, { website, birthday_year: LIMITS.birthdayYearMin });
    await h.client.updateContact(contactId, { birthday_year: LIMITS.birthdayYearMax });
    const stored = await h.client.local.contact(contactId);
    expect(stored).toMatchObject({ website, birthday_year: LIMITS.birthdayYearMax });
  });

  it('refuses a bad bulk update as a whole: nothing of the request is applied', async () => {
    await h.client.updateContact(contactId, { job_title: 'Before' });
    await expect400(
      h.client.bulkUpdateContacts([
        { contactId, data: { job_title: 'After' } },
        { contactId, data: { birthday_year: 1 } },
      ]),
      '1.data.birthday_year',
      1,
    );
    expect((await h.client.local.contact(contactId)).job_title).toBe('Before');
  });

  it('refuses an E11 website past the maximum, naming changes.website', async () => {
    await expect400(
      h.client.legacyUpdateContact(contactId, { changes: { website: tooLongWebsite } }),
      'changes.website',
    );
  });
});

describe('search limits', () => {
  for (const take of [0, LIMITS.takeMax + 1, 1.5]) {
    it(`refuses take=${take} on E3 and E4`, async () => {
      const e3 = await expect400(h.client.searchContacts({ take }), 'take');
      expect(e3.code).toBe('invalid_query');
      await expect400(h.client.globalSearch({ take }), 'take');
    });
  }

  it('accepts take at its bounds', async () => {
    await expect(h.client.searchContacts({ take: LIMITS.takeMin })).resolves.toHaveProperty('contacts');
    await expect(h.client.globalSearch({ take: LIMITS.takeMax })).resolves.toHaveProperty('contacts');
  });
});

describe('other resources', () => {
  it('refuses an unknown recurrence, field type and empty names', async () => {
    await expect400(
      h.client.createReminder({
        text: 'Call',
        due_at_date: '2025-01-01T09:00:00Z',
        recurrence: 'daily' as 'weekly',
      }),
      'reminder.recurrence',
    );
    await expect400(
      h.client.createCustomField({ name: 'Kind', field_type: 'dropdown' as 'input' }),
      'custom_field.field_type',
    );
    await expect400(h.client.createGroup({ name: '  ' }), 'group.name');
    await expect400(
      h.client.createReminder({ text: 'Call', due_at_date: 'tomorrow' }),
      'reminder.due_at_date',
    );
  });
});

describe('size limits: 413', () => {
  it(`refuses more than ${MAX_BULK} elements on E1 and on create, without retrying`, async () => {
    const before = h.client.stats();
    const elements = Array.from({ length: MAX_BULK + 1 }, () => ({ contactId, data: { starred: true } }));
    const bulk = await requestError(h.client.bulkUpdateContacts(elements));
    expect(bulk).toMatchObject({ status: 413, code: 'payload_too_large', retryable: false });
    const create = await requestError(
      h.client.createContacts(Array.from({ length: MAX_BULK + 1 }, (_, i) => ({ full_name: `P${i}` }))),
    );
    expect(create.status).toBe(413);
    expect(h.client.stats().sent - before.sent).toBe(2);
    await expect(h.client.bulkUpdateContacts(elements.slice(0, MAX_BULK))).resolves.toEqual({
      count: MAX_BULK,
    });
  });

  it('refuses a body over 5 MB', async () => {
    const huge = 'x'.repeat(LIMITS.maxBodyBytes + 1024);
    const error = await requestError(h.client.updateContact(contactId, { description: huge }));
    expect(error).toMatchObject({ status: 413, code: 'payload_too_large' });
  });
});
