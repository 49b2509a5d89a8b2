import { describe, expect, it } from 'vitest';
import { familyMatcher, matchColumn } from '../../../src/mapping/columns.js';

describe('column families', () => {
  it('gives the number of a family member, and nothing for other names', () => {
    const numberOf = familyMatcher('E-mail {n} - Value');
    expect(numberOf('E-mail 1 - Value')).toBe('1');
    expect(numberOf('E-mail 12 - Value')).toBe('12');
    expect(numberOf('E-mail  - Value')).toBeUndefined();
    expect(numberOf('E-mail x - Value')).toBeUndefined();
    expect(numberOf('E-mail 1 - Value ')).toBeUndefined();
    expect(numberOf('E-mail 1 - Label')).toBeUndefined();
    expect(numberOf('E-mail １ - Value')).toBeUndefined();
  });

  it('reads every {n} of a name as the same number, as sibling columns are filled', () => {
    const numberOf = familyMatcher('Phone {n} - Type {n}');
    expect(numberOf('Phone 2 - Type 2')).toBe('2');
    expect(numberOf('Phone 10 - Type 10')).toBe('10');
    expect(numberOf('Phone 2 - Type 3')).toBeUndefined();
    expect(numberOf('Phone 21 - Type 1')).toBeUndefined();
  });

  it('matches in number order', () => {
    expect(matchColumn('Mail {n}', ['Mail 10', 'Name', 'Mail 2', 'Mail', 'Mail 1'])).toEqual([
      { column: 'Mail 1', n: '1' },
      { column: 'Mail 2', n: '2' },
      { column: 'Mail 10', n: '10' },
    ]);
  });

  it('takes one pass over a name, whatever the pattern (no backtracking: issue 16.11)', () => {
    const pattern = `Mail ${'{n}'.repeat(30)}!`;
    const header = [`Mail ${'1'.repeat(40)}`, `Mail ${'7'.repeat(4000)}`, '9'.repeat(100_000)];
    const started = performance.now();
    for (let i = 0; i < 1000; i++) expect(matchColumn(pattern, header)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(matchColumn(pattern, [`Mail ${'12'.repeat(30)}!`])).toEqual([
      { column: `Mail ${'12'.repeat(30)}!`, n: '12' },
    ]);
  });
});
