import { describe, expect, it } from 'vitest';
import { distance } from 'fastest-levenshtein';
import { nearest } from '../../../src/core/nearest.js';
import { seededRandom } from '../../../src/core/random.js';

describe('nearest', () => {
  const pipelines = ['address-book-csv', 'generic', 'mail-client-csv', 'vcard', 'worknet-connections'];

  it('suggests the closest name for a typo', () => {
    expect(nearest('genric', pipelines)).toBe('generic');
    expect(nearest('vcrad', pipelines)).toBe('vcard');
    expect(nearest('concurency', ['concurrency', 'chunk-size'])).toBe('concurrency');
    expect(nearest('valdate', ['run', 'validate', 'serve', 'pipelines'])).toBe('validate');
  });

  it('suggests nothing for a word that is not near any', () => {
    expect(nearest('spreadsheet', pipelines)).toBeUndefined();
    expect(nearest('x', ['run', 'validate'])).toBeUndefined();
  });

  it('does not suggest the word itself', () => {
    expect(nearest('generic', pipelines)).toBeUndefined();
  });
});

/** nearest as it was before candidates of another length were skipped: every candidate measured. */
const measuringAll = (typed: string, candidates: readonly string[]): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(typed.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.min(3, Math.max(2, Math.floor(Math.max(typed.length, best?.length ?? 0) / 3)));
  return best !== undefined && bestDistance > 0 && bestDistance <= allowed ? best : undefined;
};

describe('nearest, skipping candidates too long or too short to be a typo', () => {
  it('answers what measuring every candidate answers', () => {
    const next = seededRandom(7);
    const random = (n: number): number => Math.floor(next() * n);
    const word = (): string => Array.from({ length: 1 + random(12) }, () => 'abcdeE_-'[random(8)]).join('');
    // A typo of a candidate: an edit or a few, so every distance up to and past the bound occurs.
    const typoOf = (text: string): string => {
      let typed = text;
      for (let edits = random(6); edits > 0; edits--) {
        const at = random(typed.length + 1);
        typed =
          random(2) === 0
            ? typed.slice(0, at) + 'xyz'[random(3)] + typed.slice(at)
            : typed.slice(0, at) + typed.slice(at + 1);
      }
      return typed;
    };
    for (let round = 0; round < 3_000; round++) {
      const candidates = Array.from({ length: 1 + random(8) }, word);
      const typed = random(3) === 0 ? word() : typoOf(candidates[random(candidates.length)]!);
      expect(nearest(typed, candidates), `${typed} among ${candidates.join(' ')}`).toBe(
        measuringAll(typed, candidates),
      );
    }
  });
});
