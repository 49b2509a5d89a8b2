import { describe, expect, it } from 'vitest';
import { imageAfter, imageHolds, writeAdds } from '../../../src/load/known-image.js';
import type { ContactWrite } from '../../../src/core/schemas/index.js';

const full: ContactWrite = {
  full_name: 'Ada Lovelace',
  job_title: 'Analyst',
  contact_emails: [{ email: 'ada@example.com', label: 'work', ranking: 1 }],
  contact_phone_numbers: [{ phone_number: '+44 20 7946 0000', phone_number_sanitized: '+442079460000' }],
  custom_fields: [{ id: 'f1', text_value: 'green', type: 'input' }],
};

describe('what a write changes on a contact that holds what earlier runs wrote', () => {
  it('a write with empty cells (fields left out) changes nothing', () => {
    const image = imageAfter(undefined, full);
    expect(
      writeAdds(image, { full_name: 'Ada Lovelace', contact_emails: [{ email: 'ADA@example.com' }] }),
    ).toEqual([]);
  });

  it('a changed value, a new e-mail and a changed custom value are changes; label and order are not', () => {
    const image = imageAfter(undefined, full);
    const write: ContactWrite = {
      job_title: 'CTO',
      contact_emails: [
        { email: 'ada@example.com', label: 'other', ranking: 2 },
        { email: 'ada@work.example', ranking: 1 },
      ],
      custom_fields: [{ id: 'f1', text_value: 'blue', type: 'input' }],
    };
    expect(writeAdds(image, write)).toEqual([
      'job_title',
      'contact_emails: ada@work.example',
      'custom_fields: f1',
    ]);
  });

  it('merges later writes: values replaced, lists unioned', () => {
    const image = imageAfter(imageAfter(undefined, full), {
      job_title: 'CTO',
      contact_phone_numbers: [{ phone_number: '+1 415 555 0132', phone_number_sanitized: '+14155550132' }],
    });
    expect(image.job_title).toBe('CTO');
    expect(imageHolds(image, 'contact_phone_numbers', { phone_number_sanitized: '+442079460000' })).toBe(
      true,
    );
    expect(imageHolds(image, 'contact_phone_numbers', { phone_number_sanitized: '+14155550132' })).toBe(true);
    expect(writeAdds(image, full)).toEqual(['job_title']);
  });
});
