import { describe, expect, it } from 'vitest';
import {
  birthdayLevel,
  companyLevel,
  exactLevel,
  firstNameLevel,
  lastNameLevel,
  textLevel,
} from '../../../src/candidates/comparisons.js';
import { FixedFields } from '../../../src/candidates/fixed-fields.js';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { prepare, PrepareCache } from '../../../src/candidates/prepare.js';
import type { PersonFields } from '../../../src/candidates/types.js';

const nicknames = shippedNicknames();
const cache = new PrepareCache(nicknames);
const written: PersonFields[] = [
  {
    firstName: 'Bob',
    lastName: 'Smith',
    company: 'Acme, Inc.',
    jobTitle: 'Engineer',
    birthday: '1984-03-07',
    city: 'Leeds',
  },
  {
    firstName: 'Robert',
    lastName: 'Smyth',
    company: 'ACME Software',
    jobTitle: 'engineer',
    emails: ['qx77@acme.com'],
    birthday: '1984-07-03',
    city: 'Leeds',
  },
  {
    firstName: 'Smith',
    lastName: 'Bob',
    company: 'Acme Corporation',
    birthday: '--03-07',
    city: 'Leeds, West Yorkshire',
  },
  {
    fullName: 'Katherine Johnson',
    company: 'NASA',
    birthday: '19180826',
    street: '12 High St',
    postcode: 'LS1 4AB',
  },
  { firstName: 'Kathy', lastName: 'Jonson', street: '12 High Street', postcode: 'ls14ab', city: 'Hampton' },
  { firstName: 'Björn', lastName: 'Ångström', company: 'Ångström AB', emails: ['bjorn.angstrom@x.se'] },
  {},
];
const people = written.map((p) => prepare(p, nicknames, cache));

describe('candidates: fixed fields compared by number', () => {
  it('gives every pair the levels comparing their text gives, either way round', () => {
    const fields = new FixedFields(people);
    for (let i = 0; i < people.length; i++) {
      for (let j = 0; j < people.length; j++) {
        if (i === j) continue;
        const a = people[i]!;
        const b = people[j]!;
        const pair = `${i}-${j}`;
        expect([pair, fields.firstNameLevel(fields.firstName(i), fields.firstName(j), nicknames)]).toEqual([
          pair,
          firstNameLevel(a.first, a.firstCodes, b.first, b.firstCodes, nicknames),
        ]);
        // The names the other way round, as a pair with swapped names is compared.
        expect([pair, fields.firstNameLevel(fields.firstName(i), fields.lastName(j), nicknames)]).toEqual([
          pair,
          firstNameLevel(a.first, a.firstCodes, b.last, b.lastCodes, nicknames),
        ]);
        expect([pair, fields.lastNameLevel(fields.lastName(i), fields.firstName(j))]).toEqual([
          pair,
          lastNameLevel(a.last, a.lastCodes, b.first, b.firstCodes),
        ]);
        expect([pair, fields.companyLevel(i, j)]).toEqual([pair, companyLevel(a.company, b.company)]);
        expect([pair, fields.jobLevel(i, j)]).toEqual([pair, exactLevel(a.jobTitle, b.jobTitle)]);
        expect([pair, fields.cityLevel(i, j)]).toEqual([pair, textLevel(a.city, b.city)]);
        expect([pair, fields.birthdayLevel(i, j)]).toEqual([pair, birthdayLevel(a.birth, b.birth)]);
        expect([pair, fields.streetLevel(i, j)]).toEqual([pair, textLevel(a.street, b.street, 0.88)]);
        expect([pair, fields.postcodeLevel(i, j)]).toEqual([pair, exactLevel(a.postcode, b.postcode)]);
      }
    }
  });

  it('numbers one value once whatever field it is met in, and knows a name by its first character', () => {
    const fields = new FixedFields(people);
    // `Smith` is person 0's last name and person 2's first name.
    expect(fields.lastName(0)).toBe(fields.firstName(2));
    expect(fields.firstName(0)).toBe(fields.lastName(2));
    expect(fields.firstName(0)).not.toBe(fields.firstName(1));
    expect(fields.initial(fields.firstName(1))).toBe('r'.charCodeAt(0));
    expect(fields.initial(fields.firstName(6))).toBe(-1);
    expect(fields.localsFromName(5)).toBe(true);
    expect(fields.localsFromName(1)).toBe(false);
  });
});
