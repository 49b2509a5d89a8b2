import jaroWinkler from 'jaro-winkler';
import { describe, expect, it } from 'vitest';
import { similarOnce } from '../../../src/candidates/similarity.js';
import { seededRandom } from '../../../src/core/random.js';

describe('candidates: similarity', () => {
  it('decides a threshold as the measured similarity does, whatever its bound skips', () => {
    const random = seededRandom(7);
    // Few letters, so that many pairs come near the thresholds.
    const word = () =>
      Array.from({ length: 2 + Math.floor(random() * 10) }, () => 'abcdeirst'[Math.floor(random() * 9)]).join(
        '',
      );
    let similar = 0;
    const wrong: string[] = [];
    for (let k = 0; k < 5_000; k++) {
      const a = word();
      const b = random() < 0.5 ? word() : a.slice(0, -1) + word().slice(0, 2);
      for (const threshold of [0.85, 0.88, 0.9, 0.92]) {
        const measured = jaroWinkler(a, b) >= threshold;
        if (similarOnce(a, b, threshold) !== measured) wrong.push(`${a} ${b} ${threshold}`);
        if (measured) similar++;
      }
    }
    expect(wrong).toEqual([]);
    expect(similar).toBeGreaterThan(500);
  });

  it('takes a value as similar to itself, and an empty one as similar to none', () => {
    expect(similarOnce('robertsmith', 'robertsmith', 0.92)).toBe(true);
    expect(similarOnce('robertsmith', 'robertsmiht', 0.92)).toBe(true);
    expect(similarOnce('robertsmith', 'jonesmary', 0.92)).toBe(false);
    expect(similarOnce('', 'smith', 0.92)).toBe(false);
  });
});
