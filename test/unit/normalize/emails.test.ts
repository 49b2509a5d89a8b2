import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../../src/normalize/emails.js';
import { readQuotedTsv } from './testdata.js';

/** The XML stores control characters as U+2400 + code ("control pictures"); decode them. */
const decodeControlPictures = (text: string): string =>
  text.replace(/[\u2400-\u241f]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0x2400));

const cases = readQuotedTsv('email/isemail-tests.flat.tsv').map((row) => ({
  id: Number(row.id),
  address: decodeControlPictures(row.address_as_in_xml ?? ''),
  category: row.category ?? '',
  diagnosis: row.diagnosis ?? '',
}));

/**
 * Our verdict per isemail category (docs/normalization.md has the reasons): an address book
 * holds addresses people type and mail clients export; DNS is not our business, the exotic RFC
 * 5321/5322 forms (quoted strings, comments, folding whitespace, IP literals, dotless domains)
 * are not something a contact's address needs.
 */
const CATEGORY_VERDICT: Record<string, boolean> = {
  ISEMAIL_VALID_CATEGORY: true,
  ISEMAIL_DNSWARN: true,
  ISEMAIL_RFC5321: false,
  ISEMAIL_CFWS: false,
  ISEMAIL_DEPREC: false,
  ISEMAIL_RFC5322: false,
  ISEMAIL_ERR: false,
};

/** Cases where our verdict is not the category's, each for a stated reason. */
const EXCEPTIONS: Record<number, { valid: boolean; why: string }> = {
  5: {
    valid: false,
    why: 'test@io: valid in isemail only because io. had an MX record; we require a dot in the domain',
  },
};

/**
 * Leading or trailing whitespace (spaces, CR, LF) is trimmed before the check (DESIGN.md: values
 * are trimmed), so these cases, which differ from test@iana.org only by surrounding whitespace,
 * are accepted whatever their category.
 */
const TRIMMED_TO_VALID = [
  88, 89, 99, 127, 128, 132, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156,
  157, 158,
];

function expectedVerdict(id: number, category: string): boolean {
  if (TRIMMED_TO_VALID.includes(id)) return true;
  const exception = EXCEPTIONS[id];
  if (exception) return exception.valid;
  const verdict = CATEGORY_VERDICT[category];
  if (verdict === undefined) throw new Error(`isemail case ${id}: category ${category} has no verdict`);
  return verdict;
}

describe('normalizeEmail against the isemail suite (../shared/testdata/email)', () => {
  it('reads all 164 cases and knows every category', () => {
    expect(cases).toHaveLength(164);
    for (const { category } of cases) expect(Object.keys(CATEGORY_VERDICT)).toContain(category);
  });

  it('trims exactly the cases listed as trimmed', () => {
    for (const id of TRIMMED_TO_VALID) {
      const row = cases.find((c) => c.id === id);
      expect(row?.address).not.toBe(row?.address.trim());
      expect(row?.address.trim()).toBe('test@iana.org');
    }
  });

  for (const { id, address, category, diagnosis } of cases) {
    const valid = expectedVerdict(id, category);
    it(`#${id} ${JSON.stringify(address).slice(0, 70)} ${diagnosis} -> ${valid ? 'valid' : 'invalid'}`, () => {
      const result = normalizeEmail(address);
      expect(result.ok).toBe(valid);
      if (!result.ok) {
        expect(result.code).toBe('invalid_email');
        expect(result.message).toMatch(/^E-mail ".*" is not valid: .+; expected /s);
      }
    });
  }
});

describe('normalizeEmail rules', () => {
  it('trims and lowercases', () => {
    expect(normalizeEmail('  John.Doe@Example.COM ')).toEqual({ ok: true, value: 'john.doe@example.com' });
  });

  it('accepts Unicode domains and local parts, in NFC', () => {
    expect(normalizeEmail('jürgen@bücher.de')).toEqual({ ok: true, value: 'jürgen@bücher.de' });
    expect(normalizeEmail('JU\u0308RGEN@example.de')).toEqual({ ok: true, value: 'j\u00fcrgen@example.de' });
    expect(normalizeEmail('user@例え.jp').ok).toBe(true);
  });

  it('refuses domains IDNA refuses', () => {
    expect(normalizeEmail('user@exa mple.com').ok).toBe(false);
    expect(normalizeEmail('user@-bad-.com').ok).toBe(false);
  });

  it('holds the 64-byte local part and 254-character address limits', () => {
    const label = 'a'.repeat(63);
    expect(normalizeEmail(`${'x'.repeat(64)}@example.com`).ok).toBe(true);
    expect(normalizeEmail(`${'x'.repeat(65)}@example.com`).ok).toBe(false);
    // 64 + 1 + 189 = 254
    const domain254 = `${label}.${label}.${'b'.repeat(61)}`;
    expect(domain254).toHaveLength(189);
    expect(normalizeEmail(`${'x'.repeat(64)}@${domain254}`).ok).toBe(true);
    expect(normalizeEmail(`${'x'.repeat(64)}@${domain254}c`).ok).toBe(false);
  });

  it('counts a Unicode local part in bytes', () => {
    expect(normalizeEmail(`${'ü'.repeat(32)}@example.com`).ok).toBe(true);
    expect(normalizeEmail(`${'ü'.repeat(33)}@example.com`).ok).toBe(false);
  });

  it('refuses what address-book cells get wrong', () => {
    for (const bad of [
      'john',
      'john@',
      '@example.com',
      'john@example',
      'john..doe@example.com',
      'john doe@example.com',
      'john@example.com; jane@example.com',
      'John Doe <john@example.com>',
      'mailto:john@example.com',
    ]) {
      expect(normalizeEmail(bad), bad).toMatchObject({ ok: false, code: 'invalid_email' });
    }
  });
});
