import { describe, expect, it } from 'vitest';
import { normalizeFieldValue } from '../../../src/normalize/field-normalizers.js';

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
