import { describe, expect, it } from 'vitest';
import { guessColumn } from '../../../../src/mapping/draft/guess.js';
import { guessFromHeader } from '../../../../src/mapping/draft/headers.js';
import {
  classifyValue,
  dominantKind,
  guessDateFormat,
  multiValueSeparator,
} from '../../../../src/mapping/draft/values.js';

describe('guessFromHeader: synonyms', () => {
  it.each([
    ['First Name', { section: 'name_parts', key: 'first' }],
    ['Given Name', { section: 'name_parts', key: 'first' }],
    ['Prénom', { section: 'name_parts', key: 'first' }],
    ['Last Name', { section: 'name_parts', key: 'last' }],
    ['Family Name', { section: 'name_parts', key: 'last' }],
    ['Surname', { section: 'name_parts', key: 'last' }],
    ['Nom', { section: 'name_parts', key: 'last' }],
    ['Name', { section: 'name_parts', key: 'full' }],
    ['E-mail', { section: 'emails' }],
    ['Email Address', { section: 'emails' }],
    ['Courriel', { section: 'emails' }],
    ['Mobile', { section: 'phones' }],
    ['Tel', { section: 'phones' }],
    ['Cell', { section: 'phones' }],
    ['Company', { section: 'fields', key: 'company' }],
    ['Organization', { section: 'fields', key: 'company' }],
    ['Job Title', { section: 'fields', key: 'job_title' }],
    ['DOB', { section: 'fields', key: 'birthday' }],
    ['Birthday', { section: 'fields', key: 'birthday' }],
    ['URL', { section: 'fields', key: 'website' }],
    ['Website', { section: 'fields', key: 'website' }],
    ['Notes', { section: 'fields', key: 'description' }],
    ['Description', { section: 'fields', key: 'description' }],
    ['Tags', { section: 'groups' }],
    ['Categories', { section: 'groups' }],
    ['Labels', { section: 'groups' }],
  ])('%s', (header, target) => {
    expect(guessFromHeader(header)).toEqual(target);
  });

  it('marks columns that only describe another one as filling nothing', () => {
    expect(guessFromHeader('E-mail 1 - Type')).toBeNull();
    expect(guessFromHeader('E-mail Display Name')).toBeNull();
    expect(guessFromHeader('Address 1 - Street')).toBeNull();
  });

  it('gives no hint for a header it does not know', () => {
    expect(guessFromHeader('Col5')).toBeUndefined();
  });
});

describe('value sampling', () => {
  it('classifies single values', () => {
    expect(classifyValue('ada@example.com')).toBe('email');
    expect(classifyValue('https://example.org/ada')).toBe('url');
    expect(classifyValue('www.example.org')).toBe('url');
    expect(classifyValue('1985-12-10')).toBe('date');
    expect(classifyValue('25/12/1980')).toBe('date');
    expect(classifyValue('(415) 555-2671')).toBe('phone');
    expect(classifyValue('+33 6 12 34 56 78')).toBe('phone');
    expect(classifyValue('Yes')).toBe('yesno');
    expect(classifyValue('Ada Lovelace')).toBeUndefined();
    expect(classifyValue('12')).toBeUndefined();
  });

  it('needs 80% of the non-empty samples to agree', () => {
    expect(dominantKind(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'nope'])).toBe('email');
    expect(dominantKind(['a@x.io', 'b@x.io', 'nope', 'nope too'])).toBeUndefined();
  });

  it('finds the separator of multi-value cells', () => {
    expect(multiValueSeparator(['a@x.io ::: b@x.io', 'c@x.io'], 'email')).toBe(' ::: ');
    expect(multiValueSeparator(['Friends;Math Club'])).toBe(';');
    expect(multiValueSeparator(['a@x.io'], 'email')).toBeUndefined();
  });

  it('tells day-first from month-first dates', () => {
    expect(guessDateFormat(['25/12/1980', '03/04/1975'])).toBe('D/M/YYYY');
    expect(guessDateFormat(['4/12/1985'])).toBe('M/D/YYYY');
    expect(guessDateFormat(['12.04.1985'])).toBe('D.M.YYYY');
    expect(guessDateFormat(['1985-04-12'])).toBeUndefined();
  });
});

describe('guessColumn: header and values together', () => {
  it('maps a column with no header hint by its values', () => {
    expect(guessColumn('Col5', ['marie@example.com', 'x@example.org'])).toMatchObject({
      mapped: true,
      target: { section: 'emails' },
    });
    expect(guessColumn('Col6', ['+33 1 42 68 53 00', '01 42 68 53 01'])).toMatchObject({
      mapped: true,
      target: { section: 'phones' },
    });
    expect(guessColumn('Col7', ['https://a.example', 'www.b.example'])).toMatchObject({
      target: { section: 'fields', key: 'website' },
    });
    expect(guessColumn('Col8', ['1980-01-02', '1990-03-04'])).toMatchObject({
      target: { section: 'fields', key: 'birthday' },
    });
  });

  it('values win over a header: e-mail addresses under "Contact"', () => {
    expect(guessColumn('Contact', ['a@x.io', 'b@x.io'])).toMatchObject({ target: { section: 'emails' } });
  });

  it('refuses an e-mail header whose values are not e-mails', () => {
    expect(guessColumn('E-mail', ['SMTP', 'SMTP', 'SMTP'])).toMatchObject({ mapped: false });
  });

  it('keeps a phone label from the header and the separator from the cells', () => {
    expect(guessColumn('Portable', ['06 12 34 56 78 ::: 06 12 34 56 79'])).toEqual({
      mapped: true,
      target: { section: 'phones' },
      reason: 'header and values',
      label: 'Portable',
      separator: ' ::: ',
    });
  });

  it('reads a Title column of honorifics as the name prefix', () => {
    expect(guessColumn('Title', ['Mr.', 'Dr.', ''])).toMatchObject({
      target: { section: 'name_parts', key: 'prefix' },
    });
    expect(guessColumn('Title', ['President'])).toMatchObject({
      target: { section: 'fields', key: 'job_title' },
    });
  });

  it('leaves yes/no and unknown columns unmapped with a reason', () => {
    expect(guessColumn('Newsletter', ['yes', 'no'])).toEqual({
      mapped: false,
      reason: 'yes/no values: map it under fields.starred if it marks favourites',
    });
    expect(guessColumn('Col9', ['blue', 'green'])).toMatchObject({ mapped: false });
  });
});
