import { describe, expect, it } from 'vitest';
import { blockPairs, keysOf, type BlockingOptions } from '../../../src/candidates/blocking.js';
import { FlatPeople } from '../../../src/candidates/flat-people.js';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { prepare, type Prepared } from '../../../src/candidates/prepare.js';
import { hashOf } from '../../../src/candidates/text.js';
import { seededRandom } from '../../../src/core/random.js';

const nicknames = shippedNicknames();

/**
 * Blocking as its contract says, written plainly: people sharing a key's hash form a block (in
 * order of hash); a block up to `maxBlock` is compared whole, a larger one between neighbours in
 * order of name and local part; a pair is given by the first block compared whole that holds
 * it, or by a window when no earlier whole block holds it. When a window gave a pair, the pairs
 * come once each in order of a then b; otherwise in the order the blocks gave them.
 */
const plainly = (people: readonly Prepared[], { maxBlock, window }: BlockingOptions): string[] => {
  const blocks = new Map<number, Set<number>>();
  people.forEach((person, i) => {
    for (const key of keysOf(person)) {
      const hash = hashOf(key);
      if (!blocks.has(hash)) blocks.set(hash, new Set());
      blocks.get(hash)!.add(i);
    }
  });
  const ordered = [...blocks.entries()].sort(([x], [y]) => x - y).map(([, members]) => [...members]);
  const orderKey = (i: number) => `${people[i]!.last} ${people[i]!.first} ${people[i]!.locals[0] ?? ''}`;
  const wholeSeen = new Set<string>();
  const given: string[] = [];
  let fromWindow = false;
  for (const members of ordered) {
    if (members.length < 2) continue;
    if (members.length <= maxBlock) {
      for (let x = 0; x < members.length; x++)
        for (let y = x + 1; y < members.length; y++) {
          const pair = `${members[x]},${members[y]}`;
          if (!wholeSeen.has(pair)) given.push(pair);
          wholeSeen.add(pair);
        }
      continue;
    }
    const walk = [...members].sort((x, y) =>
      orderKey(x) < orderKey(y) ? -1 : orderKey(x) > orderKey(y) ? 1 : x - y,
    );
    for (let x = 0; x < walk.length; x++)
      for (let y = x + 1; y < Math.min(walk.length, x + 1 + window); y++) {
        const pair = `${Math.min(walk[x]!, walk[y]!)},${Math.max(walk[x]!, walk[y]!)}`;
        if (wholeSeen.has(pair)) continue;
        fromWindow = true;
        given.push(pair);
      }
  }
  if (!fromWindow) return given;
  return inPairOrder([...new Set(given)]);
};

const inPairOrder = (pairs: readonly string[]): string[] =>
  [...pairs].sort((p, q) => {
    const [pa, pb] = p.split(',').map(Number);
    const [qa, qb] = q.split(',').map(Number);
    return pa! - qa! || pb! - qb!;
  });

const pairsOf = (people: readonly Prepared[], options: BlockingOptions): string[] => {
  const blocked = blockPairs(FlatPeople.of(people), options);
  return Array.from(blocked.a.subarray(0, blocked.count), (a, k) => `${a},${blocked.b[k]}`);
};

describe('candidates: blocking gives the pairs its contract describes, in its order', () => {
  const random = seededRandom(7);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const people = Array.from({ length: 300 }, () =>
    prepare(
      {
        firstName: pick(['Ann', 'Anna', 'Bob', 'Robert', 'Jo', '']),
        lastName: pick(['Smith', 'Smyth', 'Lee', 'Ng', '']),
        emails:
          random() < 0.3 ? [] : [`${pick(['ann', 'bob', 'jo.lee', 'x'])}${Math.floor(random() * 9)}@x.org`],
        phones: random() < 0.5 ? [] : [`+1555000${String(Math.floor(random() * 40)).padStart(4, '0')}`],
        birthday:
          random() < 0.5 ? undefined : `19${pick(['80', '81'])}-0${pick(['1', '2'])}-1${pick(['1', '2'])}`,
      },
      nicknames,
    ),
  );

  it('with blocks compared in part, once each in order of a then b', () => {
    for (const options of [
      { maxBlock: 4, window: 1 },
      { maxBlock: 8, window: 3 },
      { maxBlock: 30, window: 4 },
    ]) {
      const blocked = blockPairs(FlatPeople.of(people), options);
      expect(blocked.blocksSkipped).toBeGreaterThan(0);
      expect(pairsOf(people, options)).toEqual(plainly(people, options));
    }
  });

  it('with every block compared whole, in the order of the blocks', () => {
    const options = { maxBlock: 1000, window: 4 };
    const given = pairsOf(people, options);
    expect(given).toEqual(plainly(people, options));
    // Not sorted: the order of the blocks, which the first pairs met follow.
    expect(given).not.toEqual(inPairOrder(given));
  });
});
