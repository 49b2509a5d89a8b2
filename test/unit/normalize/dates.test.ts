import { describe, expect, it } from 'vitest';
import { isSupportedDateFormat } from '../../../src/normalize/date-formats.js';
import { normalizeDate, normalizeDateTime } from '../../../src/normalize/dates.js';

describe('normalizeDate', () => {
  // Regression: literal `-` and `/` in a declared format once built an invalid unicode-mode regex.
  it.each([
    ['2025-01-02', 'YYYY-MM-DD'],
    ['2025/01/02', 'YYYY/MM/DD'],
    ['02-01-2025', 'DD-MM-YYYY'],
  ])('reads %s with the declared format %s', (value, format) => {
    expect(normalizeDate(value, format)).toEqual({
      ok: true,
      value: { date: '2025-01-02', yearless: false, year: 2025 },
    });
  });

  const valid: [string, string | undefined, { date: string; yearless: boolean; year?: number }][] = [
    ['2025-12-22', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['20251222', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['2025-12-22T10:30:00Z', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['--12-22', undefined, { date: '1604-12-22', yearless: true }],
    ['--1222', undefined, { date: '1604-12-22', yearless: true }],
    ['1604-03-04', undefined, { date: '1604-03-04', yearless: true }],
    ['--02-29', undefined, { date: '1604-02-29', yearless: true }],
    ['22 Dec 2025', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['Dec 22, 2025', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['December 22, 2025', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['22. Dec 2025', undefined, { date: '2025-12-22', yearless: false, year: 2025 }],
    ['22 sept. 1990', undefined, { date: '1990-09-22', yearless: false, year: 1990 }],
    ['03/04/2025', 'MM/DD/YYYY', { date: '2025-03-04', yearless: false, year: 2025 }],
    ['03/04/2025', 'DD/MM/YYYY', { date: '2025-04-03', yearless: false, year: 2025 }],
    ['3/4/2025', 'MM/DD/YYYY', { date: '2025-03-04', yearless: false, year: 2025 }],
    ['22.12.2025', 'DD.MM.YYYY', { date: '2025-12-22', yearless: false, year: 2025 }],
    ['12/22', 'MM/DD/YYYY', { date: '1604-12-22', yearless: true }],
    ['22.12.', 'DD.MM.YYYY', { date: '1604-12-22', yearless: true }],
    ['22.12', 'DD.MM.YYYY', { date: '1604-12-22', yearless: true }],
    ['22 Dec', 'D MMM YYYY', { date: '1604-12-22', yearless: true }],
    ['Dec 22', 'MMM D, YYYY', { date: '1604-12-22', yearless: true }],
    ['2025-12-22', 'MM/DD/YYYY', { date: '2025-12-22', yearless: false, year: 2025 }],
    ['1850-05-17', undefined, { date: '1850-05-17', yearless: false, year: 1850 }],
  ];
  for (const [value, format, expected] of valid) {
    it(`${JSON.stringify(value)} ${format ?? 'ISO'} -> ${expected.date}`, () => {
      expect(normalizeDate(value, format)).toEqual({ ok: true, value: expected });
    });
  }

  it('reads two-digit years as the most recent past century', () => {
    const result = normalizeDate('05/17/90', 'MM/DD/YY');
    expect(result).toEqual({ ok: true, value: { date: '1990-05-17', yearless: false, year: 1990 } });
  });

  const invalid: [string, string | undefined][] = [
    ['2025-02-30', undefined],
    ['2023-02-29', undefined],
    ['--02-30', undefined],
    ['2025-13-01', undefined],
    ['31/04/2025', 'DD/MM/YYYY'],
    ['03/04/2025', undefined],
    ['yesterday', undefined],
    ['22 Foo 2025', undefined],
    ['2025-12-22 garbage', undefined],
    ['', undefined],
  ];
  for (const [value, format] of invalid) {
    it(`refuses ${JSON.stringify(value)} ${format ?? 'ISO'}`, () => {
      const result = normalizeDate(value, format);
      expect(result).toMatchObject({ ok: false, code: 'invalid_date' });
    });
  }

  it('says what it expected', () => {
    const result = normalizeDate('03/04/2025');
    expect(!result.ok && result.message).toContain('ISO 8601');
    const declared = normalizeDate('2025.12.22', 'DD/MM/YYYY');
    expect(!declared.ok && declared.message).toContain('"DD/MM/YYYY"');
  });

  it('refuses a format without month and day', () => {
    expect(isSupportedDateFormat('YYYY')).toBe(false);
    expect(isSupportedDateFormat('DD/DD/YYYY')).toBe(false);
    expect(isSupportedDateFormat('DD.MM.YYYY')).toBe(true);
    expect(normalizeDate('2025', 'YYYY')).toMatchObject({ ok: false, code: 'invalid_date' });
  });
});

describe('normalizeDateTime', () => {
  const valid: [string, string | undefined, string][] = [
    ['2025-12-22T10:30:00Z', undefined, '2025-12-22T10:30:00Z'],
    ['2025-12-22T10:30:00+02:00', undefined, '2025-12-22T08:30:00Z'],
    ['2025-12-22T10:30:00.123-0130', undefined, '2025-12-22T12:00:00.123Z'],
    ['2025-12-22 10:30', undefined, '2025-12-22T10:30:00Z'],
    ['2025-12-22', undefined, '2025-12-22T00:00:00Z'],
    ['12/22/2025', 'MM/DD/YYYY', '2025-12-22T00:00:00Z'],
    ['22.12.2025 18:45', 'DD.MM.YYYY', '2025-12-22T18:45:00Z'],
    ['22 Dec 2025 09:05:07 +01:00', undefined, '2025-12-22T08:05:07Z'],
    ['2025-01-01T00:30:00+01:00', undefined, '2024-12-31T23:30:00Z'],
  ];
  for (const [value, format, expected] of valid) {
    it(`${JSON.stringify(value)} -> ${expected}`, () => {
      expect(normalizeDateTime(value, format)).toEqual({ ok: true, value: expected });
    });
  }

  for (const value of [
    '2025-12-22T25:00:00Z',
    '2025-02-30T10:00:00Z',
    '--12-22',
    'soon',
    '2025-12-22T10:00:00+25:00',
  ]) {
    it(`refuses ${JSON.stringify(value)}`, () => {
      expect(normalizeDateTime(value)).toMatchObject({ ok: false, code: 'invalid_date' });
    });
  }
});
