import { describe, expect, it } from 'vitest';
import { LevelMemo } from '../../../src/candidates/level-memo.js';
import { similarity, similarityGeneration } from '../../../src/candidates/similarity.js';

describe('candidates: levels remembered per pair of values', () => {
  it('gives back every level set, by ordered pair, and nothing for a pair not set', () => {
    const memo = new LevelMemo();
    for (let x = 1; x <= 200; x++) for (let y = 1; y <= 50; y++) memo.set(x, y, ((x * 7 + y) % 7) - 1);
    const wrong: string[] = [];
    for (let x = 1; x <= 200; x++)
      for (let y = 1; y <= 50; y++) if (memo.get(x, y) !== ((x * 7 + y) % 7) - 1) wrong.push(`${x},${y}`);
    expect(wrong).toEqual([]);
    expect(memo.get(50, 200)).toBeUndefined();
    expect(memo.get(201, 1)).toBeUndefined();
  });

  it('forgets every level once the similarity table is emptied', () => {
    const memo = new LevelMemo();
    memo.set(3, 4, 2);
    expect(memo.get(3, 4)).toBe(2);
    const before = similarityGeneration();
    // More distinct pairs than the table holds.
    for (let k = 0; similarityGeneration() === before; k++) similarity(`a${k}`, `b${k}`);
    expect(memo.get(3, 4)).toBeUndefined();
    memo.set(3, 4, 1);
    expect(memo.get(3, 4)).toBe(1);
  });
});
