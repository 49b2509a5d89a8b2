import { describe, expect, it } from 'vitest';
import { keyHashesOf, keysOf } from '../../../src/candidates/blocking.js';
import { ComparablePeople } from '../../../src/candidates/comparable-people.js';
import { comparePair, comparePrepared, newLevels } from '../../../src/candidates/compare-pair.js';
import { COMPARISONS } from '../../../src/candidates/comparisons.js';
import { FlatPeople } from '../../../src/candidates/flat-people.js';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { digitsOf, prepare, PrepareCache } from '../../../src/candidates/prepare.js';
import { StagedPeople } from '../../../src/candidates/staged-people.js';
import { hashOf, hashOfDigits, sameDigits } from '../../../src/candidates/text.js';
import type { PersonFields } from '../../../src/candidates/types.js';
import { seededRandom } from '../../../src/core/random.js';

const nicknames = shippedNicknames();

/** People with every kind of value, missing, repeated, written otherwise or not usable. */
const somePeople = (): PersonFields[] => {
  {
    const random = seededRandom(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const names = ['Bob', 'Robert', 'José', 'Jose', 'Smith', "O'Brien", '', null, undefined];
    const emails = [
      'bob.smith84@example.com',
      ' Bob.Smith+news@Example.com ',
      'rsmith@x.org',
      'obrien@x.ie',
      '',
      '  ',
      'x@y',
      // Characters a byte holds and those it does not, white space `trim` removes beyond ASCII.
      'Jürgen.Groß@Bücher.de',
      'İnci+tr@x.tr',
      '用户@例子.cn',
      '\u00a0Bob.Smith@X.org\u00a0',
      'a\tb@x',
      '++@x',
    ];
    const phones = ['+14155550100', '(415) 555-0101', '12', '', '+44 20 7946 0958', '١٢٣٤٥٦٧ 555-0102'];
    const people: PersonFields[] = [];
    for (let k = 0; k < 2_000; k++)
      people.push({
        firstName: pick(names),
        lastName: pick(names),
        fullName: pick(['Smith, Bob', 'Bob J. Smith', 'Cher', '', null]),
        emails: Array.from({ length: Math.floor(random() * 4) }, () => pick(emails)),
        phones:
          random() < 0.2 ? undefined : Array.from({ length: Math.floor(random() * 4) }, () => pick(phones)),
        company: pick(['Acme, Inc.', 'ACME Corporation', '', null]),
        jobTitle: pick(['Chief Engineer', 'CEO', undefined]),
        birthday: pick(['1957-05-10', '--05-10', '1990-13-01', '', undefined]),
        street: pick(['12 High St', '', undefined]),
        postcode: pick(['SW1A 1AA', '', undefined]),
        city: pick(['Leeds', 'São Paulo', undefined]),
      });
    return people;
  }
};

describe('candidates: people staged, then laid out flat when matching starts', () => {
  const people = somePeople();
  const expected = people.map((person) => prepare(person, nicknames, new PrepareCache(nicknames)));
  const stagedPeople = (): FlatPeople => {
    const staged = new StagedPeople(new PrepareCache(nicknames));
    for (const person of people) staged.add(person);
    expect(staged.size).toBe(people.length);
    const flat = staged.finish();
    // Let go once laid out.
    expect(staged.size).toBe(0);
    return flat;
  };

  it('holds every person as preparing each as it is read does, in the order added', () => {
    const flat = stagedPeople();
    const prepared = expected.map((_, i) => flat.preparedAt(i));
    expect(prepared).toEqual(expected);
    expect(prepared.filter((p) => p.emails.length >= 3).length).toBeGreaterThan(0);
    expect(prepared.filter((p) => p.locals.length >= 2).length).toBeGreaterThan(0);
    expect(prepared.filter((p) => p.localsFromName).length).toBeGreaterThan(0);
    expect(prepared.filter((p) => !p.localsFromName).length).toBeGreaterThan(0);
  });

  it('lays out people prepared one by one as staging does', () => {
    const flat = FlatPeople.of(expected);
    expect(expected.map((_, i) => flat.preparedAt(i))).toEqual(expected);
  });

  it('gives the levels comparing the prepared people gives, pair by pair', () => {
    const comparable = new ComparablePeople(stagedPeople());
    const random = seededRandom(5);
    const levels = newLevels();
    const alone = newLevels();
    let agreeing = 0;
    for (let k = 0; k < 3_000; k++) {
      const i = Math.floor(random() * expected.length);
      const j = Math.floor(random() * expected.length);
      if (i === j) continue;
      const swapped = comparePair(comparable, i, j, nicknames, levels);
      expect(swapped).toBe(comparePrepared(expected[i]!, expected[j]!, nicknames, alone));
      expect([...levels]).toEqual([...alone]);
      if (levels.some((level) => level > 0)) agreeing++;
    }
    expect(agreeing).toBeGreaterThan(100);
  });

  it('gives the blocking keys, the values weighed by frequency and those reasons show of each person', () => {
    const flat = stagedPeople();
    expected.forEach((p, i) => {
      const hashes = new Set<number>();
      keyHashesOf(flat, i, (hash) => hashes.add(hash));
      expect([...hashes].sort()).toEqual(
        keysOf(p)
          .map((key) => hashOf(key))
          .sort(),
      );
      COMPARISONS.forEach((comparison, field) => {
        if ('frequencyOf' in comparison)
          expect(flat.frequencyValues(field)(i)).toBe(comparison.frequencyOf(p));
      });
      expect(flat.shownValues(i)).toEqual({ first: p.first, last: p.last, company: p.company, city: p.city });
    });
  });

  it("reads a local part's digits in place as digitsOf makes them", () => {
    const locals = ['bsmith84', 'b1smith84', 'bsmith', '84', '8b4', 'b0', 'bsmith48', '', 'a1b2c3', '123'];
    for (const x of locals) {
      expect(hashOfDigits(x)).toBe(hashOf(digitsOf(x)));
      for (const y of locals) expect(sameDigits(x, y)).toBe(digitsOf(x) === digitsOf(y));
    }
  });
});
