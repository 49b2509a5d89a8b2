import { describe, expect, it } from 'vitest';
import { contactWriteSchema } from '../../../src/core/schemas/index.js';
import {
  checkWriteField,
  freeTextFields,
  normalizeFieldValue,
} from '../../../src/normalize/field-normalizers.js';

describe('legacy_contact_addresses', () => {
  it('addresses become {formatted} entries; service-shaped entries pass as they are', () => {
    expect(
      normalizeFieldValue('legacy_contact_addresses', ['  1 Main St ', '', { formatted: 'Two' }], {}),
    ).toEqual({
      ok: true,
      value: [{ formatted: '1 Main St' }, { formatted: 'Two' }],
    });
    expect(normalizeFieldValue('legacy_contact_addresses', 'Only one', {})).toEqual({
      ok: true,
      value: [{ formatted: 'Only one' }],
    });
    expect(normalizeFieldValue('legacy_contact_addresses', ['', ' '], {})).toBeUndefined();
  });
});

describe('checkWriteField', () => {
  it('passes a string of a free-text field without the schema, exactly when the schema would', () => {
    const fields = freeTextFields();
    expect(fields).toEqual(expect.arrayContaining(['full_name', 'first_name', 'company', 'job_title']));
    // Fields with their own rules are never on the short path.
    for (const field of ['website', 'birthday', 'birthday_year', 'source', 'starred', 'contact_emails'])
      expect(fields).not.toContain(field);
    const shape = contactWriteSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
    for (const field of fields) {
      for (const value of ['', 'Ada', 'é'.repeat(10_000), '=1+1']) {
        expect(shape[field]!.safeParse(value).success).toBe(true);
        expect(checkWriteField(field, value)).toEqual({ ok: true });
      }
      expect(checkWriteField(field, 42)).toMatchObject({ ok: false, code: 'invalid_value' });
    }
  });
});
