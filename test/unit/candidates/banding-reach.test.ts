/**
 * Pairs whose comparison vector cannot reach a band are not scored: the bands must come out as
 * scoring every pair gives them, the each-other's-best rule included.
 */
import { describe, expect, it } from 'vitest';
import { bandPairs } from '../../../src/candidates/banding.js';
import { blockPairs } from '../../../src/candidates/blocking.js';
import { ComparablePeople } from '../../../src/candidates/comparable-people.js';
import { comparePair } from '../../../src/candidates/compare-pair.js';
import { FIELD_COUNT } from '../../../src/candidates/comparisons.js';
import { FlatPeople } from '../../../src/candidates/flat-people.js';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { prepare, PrepareCache } from '../../../src/candidates/prepare.js';
import { DEFAULT_BANDS, type Bands } from '../../../src/candidates/scoring.js';
import { TermFrequencies } from '../../../src/candidates/term-frequencies.js';
import { estimateU, patternsOf, train } from '../../../src/candidates/training.js';
import { seededRandom } from '../../../src/core/random.js';

const nicknames = shippedNicknames();
const random = seededRandom(7);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const cache = new PrepareCache(nicknames);
// Two records each of people with rare names that agree on little else: the rarity of their
// names is what may band them.
const rare = Array.from({ length: 30 }, (_, i) => [
  { firstName: `Xenia${i}`, lastName: `Quist${i}`, city: 'Leeds' },
  { firstName: `Xenia${i}`, lastName: `Quist${i}`, city: pick(['Leeds', 'York']) },
]).flat();
const flat = FlatPeople.of([
  ...rare.map((person) => prepare(person, nicknames, cache)),
  ...Array.from({ length: 600 }, () =>
    prepare(
      {
        firstName: pick(['Robert', 'Bob', 'Rob', 'Anna', 'Ann', 'Zoë', 'Li', '']),
        lastName: pick(['Smith', 'Smyth', 'Nakamura', 'Ng', 'Garcia', '']),
        emails:
          random() < 0.3
            ? []
            : [`${pick(['rsmith', 'anna.ng', 'li', 'bob.g'])}${Math.floor(random() * 4)}@x.org`],
        phones: random() < 0.5 ? [] : [`+44 20 7946 00${Math.floor(random() * 6)}`],
        birthday:
          random() < 0.5
            ? undefined
            : `19${60 + Math.floor(random() * 3)}-0${1 + Math.floor(random() * 2)}-1${Math.floor(random() * 2)}`,
        city: pick(['Leeds', 'York', 'Yorke', '']),
        company: pick(['Acme', 'Acme Software', 'Globex', '']),
      },
      nicknames,
      cache,
    ),
  ),
]);

const banded = (bands: Bands, withPatterns: boolean) => {
  const blocked = blockPairs(flat);
  const people = new ComparablePeople(flat);
  const levels = new Int8Array(blocked.count * FIELD_COUNT);
  const swapped = new Uint8Array(blocked.count);
  for (let k = 0; k < blocked.count; k++)
    swapped[k] = comparePair(people, blocked.a[k]!, blocked.b[k]!, nicknames, levels, k * FIELD_COUNT)
      ? 1
      : 0;
  const u = estimateU(flat.size, (i, j, into, at) => comparePair(people, i, j, nicknames, into, at));
  const patterns = patternsOf(levels, blocked.count);
  const model = train(patterns, u, flat.size);
  const frequencies = new TermFrequencies(flat);
  return bandPairs(
    {
      people: flat,
      blocked,
      levels,
      swapped,
      model,
      frequencies,
      patterns: withPatterns ? patterns : undefined,
    },
    bands,
  ).sort((x, y) => x.a - y.a || x.b - y.b);
};

describe('candidates: pairs that cannot reach a band', () => {
  for (const [name, bands] of [
    ['the default bands', DEFAULT_BANDS],
    ['bands low enough that most pairs are in one', { likely: 0.3, possible: 0.05, eachOthersBest: 0.01 }],
  ] as const)
    it(`are left out of ${name} as scoring every pair leaves them out`, () => {
      const all = banded(bands, false);
      expect(all.length).toBeGreaterThan(0);
      expect(banded(bands, true)).toEqual(all);
    });
});
