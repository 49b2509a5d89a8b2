import { describe, expect, it } from 'vitest';
import { blockPairs, keyHashesOf, keysOf } from '../../../src/candidates/blocking.js';
import { comparePrepared, madeFromName, newLevels } from '../../../src/candidates/compare-pair.js';
import { birthdayLevel, FIELD, NULL } from '../../../src/candidates/comparisons.js';
import { findCandidates } from '../../../src/candidates/index.js';
import { FlatPeople } from '../../../src/candidates/flat-people.js';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { companyKey, parseBirthday, prepare } from '../../../src/candidates/prepare.js';
import { fold, hashOf, squash } from '../../../src/candidates/text.js';
import type { PersonFields } from '../../../src/candidates/types.js';

const nicknames = shippedNicknames();
const p = (fields: PersonFields) => prepare(fields, nicknames);
const levelsOf = (a: PersonFields, b: PersonFields) => {
  const levels = newLevels();
  const swapped = comparePrepared(p(a), p(b), nicknames, levels);
  return { levels, swapped };
};

describe('candidates: comparisons', () => {
  it('knows nicknames from the shipped table, both ways, and not unrelated names', () => {
    expect(nicknames.related('bob', 'robert')).toBe(true);
    expect(nicknames.related('robert', 'bob')).toBe(true);
    expect(nicknames.related('bill', 'william')).toBe(true);
    expect(nicknames.related('bob', 'william')).toBe(false);
    const { levels } = levelsOf(
      { firstName: 'Bob', lastName: 'Smith' },
      { firstName: 'Robert', lastName: 'Smith' },
    );
    expect(levels[FIELD.first]).toBe(4);
    expect(levels[FIELD.last]).toBe(4);
  });

  it('compares names written the other way round as if in place', () => {
    const { levels, swapped } = levelsOf(
      { firstName: 'Yuki', lastName: 'Nakamura' },
      { firstName: 'Nakamura', lastName: 'Yuki' },
    );
    expect(swapped).toBe(true);
    expect(levels[FIELD.first]).toBe(5);
    expect(levels[FIELD.last]).toBe(4);
  });

  it('reads a birthday exact, one part off, transposed, same year, or year-less', () => {
    const b = (v: string) => parseBirthday(v);
    expect(birthdayLevel(b('1980-04-12'), b('1980-04-12'))).toBe(4);
    expect(birthdayLevel(b('1980-04-12'), b('1981-04-12'))).toBe(3);
    expect(birthdayLevel(b('1980-04-12'), b('1980-12-04'))).toBe(3);
    expect(birthdayLevel(b('1980-04-12'), b('1980-07-30'))).toBe(1);
    expect(birthdayLevel(b('--04-12'), b('1980-04-12'))).toBe(2);
    expect(birthdayLevel(b('1980-04-12'), b('1975-01-02'))).toBe(0);
    expect(birthdayLevel(undefined, b('1975-01-02'))).toBe(NULL);
  });

  it('drops legal suffixes from company names', () => {
    expect(companyKey('Acme, Inc.')).toBe('acme');
    expect(companyKey('ACME Corporation')).toBe('acme');
    expect(companyKey('Müller & Söhne GmbH')).toBe('muller sohne');
  });

  it('does not count a local part made from the name as a second agreement of the name', () => {
    const bob = p({ firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@acme.com'] });
    expect(madeFromName('robertsmith', bob)).toBe(true);
    expect(madeFromName('bsmith84', bob)).toBe(true);
    expect(madeFromName('tigerfan', bob)).toBe(false);
    const fromName = levelsOf(
      { firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@acme.com'] },
      { firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@gmail.com'] },
    );
    expect(fromName.levels[FIELD.email]).toBe(NULL);
    const chosen = levelsOf(
      { firstName: 'Robert', lastName: 'Smith', emails: ['tigerfan@acme.com'] },
      { firstName: 'Robert', lastName: 'Smith', emails: ['tigerfan@gmail.com'] },
    );
    expect(chosen.levels[FIELD.email]).toBe(2);
  });

  it("does not take a household's phone for one person's: same last name, other first name", () => {
    const relatives = levelsOf(
      { firstName: 'Anna', lastName: 'Novak', phones: ['+442071234567'] },
      { firstName: 'Peter', lastName: 'Novak', phones: ['+442071234567'] },
    );
    expect(relatives.levels[FIELD.phone]).toBe(NULL);
    const one = levelsOf(
      { firstName: 'Anna', lastName: 'Novak', phones: ['+442071234567'] },
      { firstName: 'Ann', lastName: 'Novak', phones: ['+442071234567'] },
    );
    expect(one.levels[FIELD.phone]).toBe(2);
  });
});

describe('candidates: text', () => {
  it('squashes printable ASCII as folding and taking the spaces out does', () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, k) => String.fromCharCode(0x20 + k));
    for (const x of printable)
      for (const y of printable) {
        const value = `A${x}b${y}`;
        expect(squash(value)).toBe(fold(value).replaceAll(' ', ''));
      }
    expect(squash('Zoë  O’Brien')).toBe('zoeobrien');
  });
});

describe('candidates: blocking', () => {
  it('gives a nickname and its formal name a shared key', () => {
    const bob = keysOf(p({ firstName: 'Bob', lastName: 'Smith' }));
    const robert = keysOf(p({ firstName: 'Robert', lastName: 'Smith' }));
    expect(bob.some((k) => robert.includes(k))).toBe(true);
  });

  it('hashes each key from its parts as the key written out would hash', () => {
    const people = [
      p({ firstName: 'Bob', lastName: 'Smith', emails: ['bob.smith84@x.com', '1234@y.org', 'ab@z.net'] }),
      p({
        firstName: 'Zoë',
        lastName: "O'Brien",
        phones: ['+15551234567', '020 7946 0018'],
        birthday: '1984-03-09',
      }),
      p({ fullName: 'Nakamura, Yuki', birthday: '0987-11-30', street: '12 High St', postcode: 'LS1 4AB' }),
      p({ lastName: 'Lee', birthday: '--05-06', street: 'Flat', postcode: '10115' }),
      p({ firstName: 'A', lastName: 'B' }),
      p({}),
    ];
    for (const person of people) {
      const hashes = new Set<number>();
      keyHashesOf(FlatPeople.of([person]), 0, (hash) => hashes.add(hash));
      expect([...hashes].sort()).toEqual(
        keysOf(person)
          .map((key) => hashOf(key))
          .sort(),
      );
    }
  });

  it('compares a pair sharing several keys once, and a large block only between neighbours', () => {
    const twins = [
      p({ firstName: 'Ann', lastName: 'Lee', phones: ['+15551234567'], birthday: '1990-01-02' }),
      p({ firstName: 'Ann', lastName: 'Lee', phones: ['+15551234567'], birthday: '1990-01-02' }),
    ];
    expect(blockPairs(FlatPeople.of(twins)).count).toBe(1);
    const many = Array.from({ length: 100 }, (_, i) =>
      p({ firstName: 'John', lastName: 'Smith', emails: [`js${i}@x.com`] }),
    );
    const blocked = blockPairs(FlatPeople.of(many), { maxBlock: 10, window: 3 });
    expect(blocked.blocksSkipped).toBeGreaterThan(0);
    expect(blocked.count).toBeLessThanOrEqual(100 * 3 * 3);
    const seen = new Set<string>();
    for (let k = 0; k < blocked.count; k++) seen.add(`${blocked.a[k]},${blocked.b[k]}`);
    expect(seen.size).toBe(blocked.count);
  });
});

describe('candidates: findCandidates', () => {
  it('pairs Bob Smith and Robert Smith sharing a phone, not the namesake elsewhere, and clusters them', () => {
    const people: PersonFields[] = [
      {
        firstName: 'Bob',
        lastName: 'Smith',
        emails: ['bsmith84@gmail.com'],
        phones: ['+14155550101'],
        company: 'Acme',
      },
      {
        firstName: 'Robert',
        lastName: 'Smith',
        emails: ['robert.smith@acme.com'],
        phones: ['+14155550101'],
        company: 'Acme, Inc.',
      },
      {
        firstName: 'Robert',
        lastName: 'Smith',
        emails: ['rob@globex.com'],
        phones: ['+12125550199'],
        company: 'Globex',
        birthday: '1970-01-01',
      },
      ...Array.from({ length: 40 }, (_, i) => ({
        firstName: `Person${i}`,
        lastName: `Other${i}`,
        emails: [`p${i}@x.com`],
      })),
    ];
    const { pairs, counts } = findCandidates(people);
    const top = pairs[0]!;
    expect([top.a, top.b]).toEqual([0, 1]);
    expect(top.reasons).toContain('first_name: nickname bob~robert');
    expect(top.reasons).toContain('phone: same number');
    expect(top.cluster).toBe(1);
    expect(pairs.some((pair) => pair.band === 'likely' && pair.b === 2)).toBe(false);
    expect(counts.likely + counts.possible).toBe(pairs.length);
  });
});
