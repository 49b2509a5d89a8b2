import { describe, expect, it } from 'vitest';
import { relaxedName } from '../../../src/core/column-names.js';
import { ColumnIndex, familyMatcher, matchColumn, withNumber } from '../../../src/mapping/columns.js';

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

  it('takes one pass over a name, whatever the pattern (no backtracking)', () => {
    const pattern = `Mail ${'{n}'.repeat(30)}!`;
    const header = [`Mail ${'1'.repeat(40)}`, `Mail ${'7'.repeat(4000)}`, '9'.repeat(100_000)];
    // Backtracking would take years on these names: the test timeout is the bound.
    for (let i = 0; i < 1000; i++) expect(matchColumn(pattern, header)).toEqual([]);
    expect(matchColumn(pattern, [`Mail ${'12'.repeat(30)}!`])).toEqual([
      { column: `Mail ${'12'.repeat(30)}!`, n: '12' },
    ]);
  });
});

describe('ColumnIndex: header names found as detection compares them', () => {
  it('finds a column under its exact name first, else relaxed (case, spaces, underscores, BOM)', () => {
    const index = new ColumnIndex(['\uFEFFEMAIL', 'first_name', 'Last  Name ', 'Phone', 'phone']);
    expect(index.resolve('Phone')).toBe('Phone');
    expect(index.resolve('phone')).toBe('phone');
    expect(index.resolve('PHONE')).toBe('Phone');
    expect(index.resolve('Email')).toBe('\uFEFFEMAIL');
    expect(index.resolve('First Name')).toBe('first_name');
    expect(index.resolve('last_name')).toBe('Last  Name ');
    expect(index.resolve('E-mail')).toBeUndefined();
  });

  it('matches families relaxed, each number once (the exact spelling preferred)', () => {
    const index = new ColumnIndex([
      'e-mail 2 - value',
      'E-mail 1 - Value',
      'e-mail 1 - value',
      'E-MAIL 1 - LABEL',
    ]);
    expect(index.match('E-mail {n} - Value')).toEqual([
      { column: 'E-mail 1 - Value', n: '1' },
      { column: 'e-mail 2 - value', n: '2' },
    ]);
    expect(index.resolve(withNumber('E-mail {n} - Label', '1'))).toBe('E-MAIL 1 - LABEL');
  });

  it('agrees with detection: every header name detection relaxes to a column is one the index finds', () => {
    const names = ['EMAIL', ' Phone_Number ', 'first__name', 'Mobile\tPhone'];
    const index = new ColumnIndex(names);
    for (const name of names) expect(index.resolve(relaxedName(name))).toBe(name);
  });
});
