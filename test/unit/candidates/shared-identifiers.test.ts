import { describe, expect, it } from 'vitest';
import { findCandidates } from '../../../src/candidates/index.js';
import type { PersonFields } from '../../../src/candidates/types.js';
import { seededRandom } from '../../../src/core/random.js';

const FIRST = ['Ana', 'Ivan', 'Grace', 'Kwame', 'Aiko', 'Søren', 'María', 'José', 'Chloé', 'Jürgen'];
const LAST = ['Souza', 'Weiß', 'Nowak', 'Okafor', 'Rossi', 'Dubois', 'Petrov', 'Lefèvre', 'Nguyen'];

/**
 * An address book where a tenth of the records share a number and a birth date with a stranger
 * (a switchboard line, and dates that coincide in a large file): the pairs agreeing on those
 * identifiers are mostly not one person, so what they teach of names must not make names weigh
 * nothing.
 */
const addressBook = (): PersonFields[] => {
  const random = seededRandom(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const date = () =>
    `19${50 + Math.floor(random() * 40)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`;
  const people: PersonFields[] = [];
  for (let i = 0; i < 2_000; i++) {
    people.push({
      firstName: pick(FIRST),
      lastName: pick(LAST),
      emails: [`person${i}@example.com`],
      phones: [`+1646201${String(i).padStart(4, '0')}`],
      birthday: date(),
    });
  }
  for (let i = 0; i < 200; i++) {
    const stranger = people[i * 7]!;
    people.push({
      firstName: FIRST[(FIRST.indexOf(stranger.firstName!) + 3) % FIRST.length],
      lastName: LAST[(LAST.indexOf(stranger.lastName!) + 4) % LAST.length],
      emails: [`other${i}@example.org`],
      phones: stranger.phones,
      birthday: stranger.birthday,
    });
  }
  return people;
};

describe('candidates: identifiers many strangers share', () => {
  it('does not score two people whose names share nothing and who share only a birth date as more likely one person than not', () => {
    const people = addressBook();
    const { pairs } = findCandidates(people);
    const namesApart = pairs.filter((pair) => {
      const a = people[pair.a]!;
      const b = people[pair.b]!;
      return a.firstName !== b.firstName && a.lastName !== b.lastName && a.phones![0] !== b.phones![0];
    });
    expect(namesApart.filter((pair) => pair.score >= 0.5).map((pair) => pair.score)).toEqual([]);
  });
});
