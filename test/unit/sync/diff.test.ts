import { describe, expect, it } from 'vitest';
import { diffSent } from '../../../src/sync/diff.js';
import { sentValuesOf } from '../../../src/sync/sent-values.js';
import { archiveLimit, checkArchiveGuard, parseMaxArchive } from '../../../src/sync/guard.js';
import { clearableFields } from '../../../src/sync/members.js';

const sent = (emails: string[], phones: string[], fields: Record<string, string>) => ({
  emails,
  phones: phones.map((phone_number) => ({ phone_number })),
  fields,
});

describe('diffSent: what a member lost at the source', () => {
  const clearable = clearableFields(['job_title', 'company', 'starred']);

  it('finds removed e-mails (any case), removed phones and emptied fields of the header', () => {
    const before = sent(['A@x.com', 'b@x.com'], ['+14155550001', '+14155550002'], {
      full_name: 'A',
      job_title: 'Chief',
      company: 'Acme',
      description: 'kept: not in the header',
    });
    const now = sent(['a@X.com'], ['+14155550002'], { full_name: 'A', company: 'Acme' });
    expect(diffSent(before, now, clearable)).toEqual({
      removedEmails: ['b@x.com'],
      removedPhones: ['+14155550001'],
      cleared: [{ field: 'job_title', old: 'Chief' }],
    });
  });

  it('clears only fields the service lets be null', () => {
    expect([...clearable].sort()).toEqual(['company', 'job_title']);
  });

  it('finds nothing when the source still says the same', () => {
    const same = sent(['a@x.com'], ['+14155550001'], { job_title: 'Chief' });
    expect(diffSent(same, same, clearable)).toEqual({ removedEmails: [], removedPhones: [], cleared: [] });
  });
});

describe('sentValuesOf', () => {
  it('keeps e-mails, phones by the number the service keys them by, and scalar fields', () => {
    expect(
      sentValuesOf({
        full_name: 'Ada',
        starred: true,
        birthday_year: 1985,
        contact_emails: [{ email: 'ada@x.com', label: 'work' }],
        contact_phone_numbers: [
          { phone_number: '(415) 555-2671', phone_number_sanitized: '+14155552671', label: 'mobile' },
        ],
      }),
    ).toEqual({
      emails: ['ada@x.com'],
      phones: [{ phone_number: '+14155552671', label: 'mobile' }],
      fields: { full_name: 'Ada', birthday_year: '1985' },
    });
  });
});

describe('--max-archive', () => {
  it('defaults to 10% of the scope, never below 5', () => {
    expect(archiveLimit(undefined, 20)).toBe(5);
    expect(archiveLimit(undefined, 1000)).toBe(100);
    expect(archiveLimit(parseMaxArchive('3'), 1000)).toBe(3);
    expect(archiveLimit(parseMaxArchive('2.5%'), 1000)).toBe(25);
  });

  it('refuses what is neither a count nor a percentage', () => {
    expect(() => parseMaxArchive('ten')).toThrow(/--max-archive must be a whole number or a percentage/);
    expect(() => parseMaxArchive('1.5')).toThrow(/--max-archive/);
  });

  it('stops a run over the limit with one line naming the count, the scope and the flag', () => {
    expect(() => checkArchiveGuard({ scope: 'hr', archives: 6, active: 20, threshold: undefined })).toThrow(
      /sync scope "hr": this run would archive 6 of 20 contacts, more than --max-archive 10% \(at least 5\) allows \(5\)/,
    );
    expect(() =>
      checkArchiveGuard({ scope: 'hr', archives: 5, active: 20, threshold: undefined }),
    ).not.toThrow();
  });
});
