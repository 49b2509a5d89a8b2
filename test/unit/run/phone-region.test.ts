import { describe, expect, it } from 'vitest';
import { regionForColumn } from '../../../src/run/phone-region.js';

const french = Array.from({ length: 12 }, (_, i) => `06 12 34 56 ${10 + i}`);

describe('regionForColumn: the country numbers without +country are written for', () => {
  it('names FR for French mobiles that fail under US', () => {
    expect(regionForColumn('Portable', french, 'US')).toEqual({
      column: 'Portable',
      sampled: 12,
      failed: 12,
      region: 'FR',
    });
  });

  it('says nothing when the numbers pass, or when only a few fail', () => {
    expect(regionForColumn('Phone', ['(415) 555-2671', '+33 1 42 68 53 00'], 'US')).toBeUndefined();
    const mostlyGood = [...Array.from({ length: 20 }, () => '(415) 555-2671'), ...french.slice(0, 6)];
    expect(regionForColumn('Phone', mostlyGood, 'US')).toBeUndefined();
  });

  it('says nothing when no region reads the failures', () => {
    expect(
      regionForColumn(
        'Phone',
        Array.from({ length: 10 }, () => 'n/a'),
        'US',
      ),
    ).toBeUndefined();
  });

  it('a pipeline with no region: the country domains of the e-mails hint first', () => {
    const german = Array.from({ length: 8 }, (_, i) => `030 1234567${i}`);
    const emails = german.map((_, i) => `p${i}@example.de`);
    expect(regionForColumn('Telefon', german, undefined, { emails })?.region).toBe('DE');
  });
});

describe('regionForColumn with no region to start from', () => {
  it('names only the country the file points to, never a guess', () => {
    const american = Array.from({ length: 8 }, (_, i) => `(415) 555-26${10 + i}`);
    expect(regionForColumn('Phone', american, undefined)).toBeUndefined();
    expect(regionForColumn('Phone', american, undefined, { phones: ['+1 212 555 0147'] })?.region).toBe('US');
  });
});
