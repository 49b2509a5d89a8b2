import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../../src/package/key-index.js';

/** A key index over an in-memory key list, as the staging uses it (sequence numbers from 1). */
const indexed = () => {
  const keys: string[] = [];
  const index = new KeyIndex(4);
  const claim = (key: string): number | undefined => {
    const held = index.claim(key, keys.length + 1, (seq) => keys[seq - 1]!);
    if (held === undefined) keys.push(key);
    return held;
  };
  return { claim, keys };
};

describe('KeyIndex', () => {
  it('answers the first sequence number of a key seen before, and nothing for a new one', () => {
    const { claim } = indexed();
    expect(claim('email:a@example.org')).toBeUndefined();
    expect(claim('email:b@example.org')).toBeUndefined();
    expect(claim('email:a@example.org')).toBe(1);
    expect(claim('email:b@example.org')).toBe(2);
  });

  it('tells apart two keys that share a fingerprint (FNV-1a collides on these two)', () => {
    const { claim } = indexed();
    expect(claim('email:user495118@example.org')).toBeUndefined();
    expect(claim('email:user1341036@example.org')).toBeUndefined();
    expect(claim('email:user1341036@example.org')).toBe(2);
    expect(claim('email:user495118@example.org')).toBe(1);
  });

  it('keeps every key through its growth from a tiny table', () => {
    const { claim } = indexed();
    const keys = Array.from({ length: 20_000 }, (_, i) => `key:${i}\u001f${i % 7}`);
    expect(keys.map(claim).every((held) => held === undefined)).toBe(true);
    expect(keys.map(claim)).toEqual(keys.map((_, i) => i + 1));
  });
});
