import { describe, expect, it } from 'vitest';
import { normalizeRecord, type NormalizeContext } from '../../../src/normalize/normalize-record.js';
import { draft } from './draft.js';

const ctx = (over: Partial<NormalizeContext> = {}): NormalizeContext => ({
  file: 'in.csv',
  row: 7,
  line: 9,
  input: 0,
  region: 'US',
  strict: false,
  constants: { source: 'csv_import' },
  ...over,
});

describe('normalizeRecord', () => {
  it('builds the write shape: lowercased e-mails, E.164 phones, composed name, constants', () => {
    const out = normalizeRecord(
      draft({
        first: ' José ',
        last: 'Núñez',
        emails: ['Jose@Example.COM', 'jose@example.com'],
        phones: ['(415) 555-0132'],
      }),
      ctx(),
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.issues).toEqual([]);
    expect(out.record.key).toBe('email:jose@example.com');
    expect(out.record.contact).toMatchObject({
      full_name: 'José Núñez',
      first_name: 'José',
      last_name: 'Núñez',
      source: 'csv_import',
      contact_emails: [{ email: 'jose@example.com', ranking: 1 }],
      contact_phone_numbers: [{ phone_number_sanitized: '+14155550132', country_code: 'US', ranking: 1 }],
    });
  });

  it('drops an invalid e-mail with a warning naming the column, and keeps the record', () => {
    const out = normalizeRecord(
      draft({ full: 'Ann Lee', emails: ['ann@@example.com'], phones: ['+44 20 7946 0958'] }),
      ctx(),
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.issues).toMatchObject([
      {
        file: 'in.csv',
        row: 7,
        line: 9,
        severity: 'warning',
        stage: 'normalize',
        field: 'E-mail 1',
        value: 'ann@@example.com',
        code: 'invalid_email',
      },
    ]);
    expect(out.record.key).toBe('phone:+442079460958');
    expect(out.record).toMatchObject({ row: 7, line: 9 });
  });

  it('rejects under --strict what it would otherwise drop', () => {
    const out = normalizeRecord(
      draft({ full: 'Ann Lee', emails: ['ann@@example.com', 'ann@example.com'] }),
      ctx({ strict: true }),
    );
    expect(out.ok).toBe(false);
    expect(out.issues[0]).toMatchObject({ severity: 'error', code: 'invalid_email' });
  });

  it('drops a British mobile without +44 in a US file (not valid there)', () => {
    const out = normalizeRecord(draft({ full: 'Ann Lee', phones: ['07700 900123'] }), ctx());
    expect(out.ok && out.record.contact.contact_phone_numbers).toBeFalsy();
    expect(out.issues.map((i) => i.code)).toContain('invalid_phone');
  });

  it('stores a year-less birthday with year 1604 and no birthday_year', () => {
    const out = normalizeRecord(draft({ full: 'Ann Lee', fields: { birthday: '--12-24' } }), ctx());
    expect(out.ok && out.record.contact).toMatchObject({ birthday: '1604-12-24' });
    expect(out.ok && 'birthday_year' in out.record.contact).toBe(false);
  });

  it('keeps birthday_year from a full date, and drops an out-of-range year with a warning', () => {
    const good = normalizeRecord(draft({ full: 'A B', fields: { birthday: '1985-04-12' } }), ctx());
    expect(good.ok && good.record.contact).toMatchObject({ birthday: '1985-04-12', birthday_year: 1985 });
    const old = normalizeRecord(draft({ full: 'A B', fields: { birthday: '1850-04-12' } }), ctx());
    expect(old.ok).toBe(true);
    if (!old.ok) return;
    expect(old.record.contact.birthday_year).toBeUndefined();
    expect(old.issues).toMatchObject([{ code: 'invalid_value', field: 'col:birthday', stage: 'validate' }]);
  });

  it('drops a website past 2083 characters, and adds a scheme to a bare one', () => {
    const long = normalizeRecord(
      draft({ full: 'A B', fields: { website: `example.com/${'x'.repeat(3000)}` } }),
      ctx(),
    );
    expect(long.ok && long.record.contact.website).toBeUndefined();
    expect(long.issues[0]?.code).toMatch(/value_too_long|invalid_website/);
    const bare = normalizeRecord(draft({ full: 'A B', fields: { website: 'example.com' } }), ctx());
    expect(bare.ok && bare.record.contact.website).toMatch(/^https?:\/\/example\.com/);
  });

  it('reads yes/no booleans and rejects nonsense with a warning', () => {
    const yes = normalizeRecord(draft({ full: 'A B', fields: { starred: 'Yes' } }), ctx());
    expect(yes.ok && yes.record.contact.starred).toBe(true);
    const bad = normalizeRecord(draft({ full: 'A B', fields: { starred: 'maybe' } }), ctx());
    expect(bad.ok && 'starred' in bad.record.contact).toBe(false);
    expect(bad.issues[0]).toMatchObject({ code: 'invalid_value', field: 'col:starred' });
  });

  it('rejects a record with no identity (no e-mail, phone, or name)', () => {
    const out = normalizeRecord(draft({ emails: ['not-an-email'], fields: { job_title: 'CTO' } }), ctx());
    expect(out.ok).toBe(false);
    expect(out.issues.map((i) => [i.code, i.severity])).toEqual([
      ['invalid_email', 'warning'],
      ['no_identity', 'error'],
    ]);
  });

  it('uses the pipeline key columns first, then e-mail, phone, then name plus company', () => {
    const keyed = normalizeRecord(draft({ full: 'A B', emails: ['a@b.co'], key: ['ID-7'] }), ctx());
    expect(keyed.ok && keyed.record.key).toBe('key:id-7');
    const named = normalizeRecord(draft({ full: 'Ann  Lee', fields: { company: 'ACME' } }), ctx());
    expect(named.ok && named.record.key).toBe('name:ann lee\u001facme');
  });

  it('reads a "Last, First" display name naturally', () => {
    const out = normalizeRecord(draft({ full: 'Doe, Jane', emails: ['jane@doe.org'] }), ctx());
    expect(out.ok && out.record.contact).toMatchObject({
      full_name: 'Jane Doe',
      first_name: 'Jane',
      last_name: 'Doe',
    });
  });

  it('normalizes datepicker custom fields to ISO dates and reminders to date-times', () => {
    const out = normalizeRecord(
      draft({
        full: 'A B',
        custom: [{ name: 'Connected On', value: '22 Dec 2025', fieldType: 'datepicker' }],
        reminders: [{ text: 'Call', due: '2026-01-05', recurrence: 'Monthly' }, { text: 'No date' }],
      }),
      ctx({ dateFormat: 'D MMM YYYY' }),
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.record.customFields).toEqual([
      { name: 'Connected On', value: '2025-12-22', fieldType: 'datepicker' },
    ]);
    expect(out.record.reminders).toEqual([
      { text: 'Call', due_at_date: '2026-01-05T00:00:00Z', recurrence: 'monthly' },
    ]);
    expect(out.issues.map((i) => i.code)).toEqual(['invalid_reminder']);
  });
});

describe('normalizeRecord says what happened to the data', () => {
  it('a dropped phone says it was left out and the contact loads without it', () => {
    const out = normalizeRecord(
      draft({ full: 'Ann Lee', emails: ['ann@example.com'], phones: ['123'] }),
      ctx(),
    );
    expect(out.ok).toBe(true);
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]!.message).toMatch(
      /^Phone "123" is not valid: .+\. Left out; the contact is loaded without it\.$/,
    );
  });

  it('a record without identity says it is not loaded, and its warnings do not claim it was', () => {
    const out = normalizeRecord(draft({ emails: ['not-an-address'] }), ctx());
    expect(out.ok).toBe(false);
    const [warning, error] = out.issues;
    expect(warning!.message).toMatch(/Left out \(the record is not loaded: see its error\)\.$/);
    expect(error!.code).toBe('no_identity');
    expect(error!.message).toMatch(/The record is not loaded\.$/);
  });

  it('under --strict the error says the record is not loaded and why it was not a warning', () => {
    const out = normalizeRecord(
      draft({ full: 'Ann', emails: ['ann@example.com'], phones: ['123'] }),
      ctx({ strict: true }),
    );
    expect(out.ok).toBe(false);
    expect(out.issues[0]!.message).toMatch(
      /The record is not loaded \(--strict rejects a record with a value it would leave out\)\.$/,
    );
  });
});
