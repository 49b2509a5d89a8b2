import { describe, expect, it } from 'vitest';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { FlatPeople } from '../../../src/candidates/flat-people.js';
import { prepare, type Prepared } from '../../../src/candidates/prepare.js';
import { seededRandom } from '../../../src/core/random.js';
import { orderRanks } from '../../../src/candidates/window-order.js';

const nicknames = shippedNicknames();

/** The order the windows walk, as the order keys compared as strings give it (ties by person). */
const byKey = (people: readonly Prepared[]): number[] => {
  const key = (p: Prepared) => `${p.last} ${p.first} ${p.locals[0] ?? ''}`;
  return people
    .map((_, i) => i)
    .sort((x, y) => (key(people[x]!) < key(people[y]!) ? -1 : key(people[x]!) > key(people[y]!) ? 1 : x - y));
};

/** Every person in one block too large to compare whole. */
const walked = (people: readonly Prepared[]): number[] => {
  const members = Int32Array.from(people.keys());
  const { personAt } = orderRanks(
    FlatPeople.of(people),
    Int32Array.of(0, people.length),
    members,
    Uint8Array.of(0),
  );
  return [...personAt];
};

describe('candidates: the order of a block compared in part', () => {
  const random = seededRandom(3);
  const pick = (values: readonly string[]) => values[Math.floor(random() * values.length)]!;
  const people = Array.from({ length: 400 }, () =>
    prepare(
      {
        firstName: pick(['Ann', 'Anna', 'Bob', 'Bo', '', 'Zoë']),
        lastName: pick(['Smith', 'Smithson', 'Smit', '', 'Ng']),
        emails: random() < 0.2 ? [] : [`${pick(['a', 'ab', 'b', 'a.b'])}${Math.floor(random() * 5)}@x.org`],
      },
      nicknames,
    ),
  );

  it('is the order of name and local part, ties by person', () => {
    expect(walked(people)).toEqual(byKey(people));
  });

  it('is that order too where a name holds a space, which sorts the keys otherwise', () => {
    const spaced = people.map((p, i) => (i % 7 === 0 ? { ...p, last: `${p.last} a` } : p));
    expect(walked(spaced)).toEqual(byKey(spaced));
  });
});
