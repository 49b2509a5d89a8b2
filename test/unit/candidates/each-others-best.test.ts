/**
 * The possible band's second rule: below the `possible` score, two records that are each other's
 * best candidate are still shown for review; a record with two candidates as good as each other
 * has no best one.
 */
import { describe, expect, it } from 'vitest';
import { EACH_OTHERS_BEST } from '../../../src/candidates/banding.js';
import { findCandidates } from '../../../src/candidates/index.js';
import type { PersonFields } from '../../../src/candidates/types.js';

const filler: PersonFields[] = Array.from({ length: 40 }, (_, i) => ({
  firstName: `Person${i}`,
  lastName: `Other${i}`,
  emails: [`p${i}@x.com`],
  city: i % 2 ? 'Leeds' : 'York',
}));
// Nothing scores `possible` or `likely` by itself: only the each-other's-best rule bands a pair.
const bands = { likely: 2, possible: 2, eachOthersBest: 0 };
const pairsOf = (people: PersonFields[]) =>
  findCandidates([...people, ...filler], { bands }).pairs.map((pair) => ({
    ab: [pair.a, pair.b],
    band: pair.band,
    reason: pair.reasons.at(-1),
  }));

describe('candidates: each other best candidate', () => {
  it('bands the pair that is the best of both its records, not a weaker pair of either', () => {
    const pairs = pairsOf([
      { firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@acme.com'], city: 'London' },
      { firstName: 'Bob', lastName: 'Smith', emails: ['bsmith84@gmail.com'], city: 'London' },
      { firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@globex.com'], city: 'Paris' },
    ]);
    expect(pairs).toEqual([{ ab: [0, 1], band: 'possible', reason: EACH_OTHERS_BEST }]);
  });

  it('bands nothing for a record whose two best candidates score alike', () => {
    const pairs = pairsOf([
      { firstName: 'Robert', lastName: 'Smith', emails: ['robert.smith@acme.com'], city: 'London' },
      { firstName: 'Bob', lastName: 'Smith', emails: ['bsmith84@gmail.com'], city: 'London' },
      { firstName: 'Bob', lastName: 'Smith', emails: ['bsmith12@yahoo.com'], city: 'London' },
    ]);
    // Robert has two Bobs alike: neither is his best; the two Bobs are each other's best.
    expect(pairs).toEqual([{ ab: [1, 2], band: 'possible', reason: EACH_OTHERS_BEST }]);
  });
});
