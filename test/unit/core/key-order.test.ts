import { describe, expect, it } from 'vitest';
import { inKeyOrder, isInKeyOrder, UNORDERABLE, withSortedKeys } from '../../../src/core/key-order.js';

describe('key order (the canonical JSON the ledger hashes)', () => {
  it('isInKeyOrder holds only when every object at every depth enumerates its keys sorted', () => {
    expect(isInKeyOrder({ a: 1, b: [{ x: 1, y: { m: 1, n: 2 } }], c: null })).toBe(true);
    expect(isInKeyOrder({ b: 1, a: 2 })).toBe(false);
    expect(isInKeyOrder({ a: [{ y: 1, x: 2 }] })).toBe(false);
    expect(isInKeyOrder({ a: { b: { d: 1, c: 2 } } })).toBe(false);
    expect(isInKeyOrder([3, 'x', null, true])).toBe(true);
    expect(isInKeyOrder('text')).toBe(true);
  });

  it('an object whose integer-like keys enumerate before sorted order is not taken as in order', () => {
    // Enumerated "2", "10", "b": sorted would be "10", "2", "b".
    const value = { '10': 'ten', '2': 'two', b: 'bee' };
    expect(isInKeyOrder(value)).toBe(false);
    expect(inKeyOrder(value)).toBe(UNORDERABLE);
  });

  it('whatever isInKeyOrder accepts, JSON.stringify writes as inKeyOrder would order it', () => {
    const values: unknown[] = [
      { a: 1, b: { c: [1, { d: 2, e: 3 }] } },
      { b: 1, a: { d: 1, c: 2 } },
      JSON.parse('{"__proto__":"kept","a":1}'),
      { '2': 'x', b: 'y' },
    ];
    for (const value of values) {
      const ordered = inKeyOrder(value);
      if (isInKeyOrder(value)) expect(ordered).toBe(value);
      if (ordered !== UNORDERABLE) expect(isInKeyOrder(ordered)).toBe(true);
    }
  });

  it("withSortedKeys orders the object's own keys, and returns it as it is when they are in order", () => {
    const inOrder = { a: 1, b: { z: 1, y: 2 } };
    expect(withSortedKeys(inOrder)).toBe(inOrder);
    const value = { source: 'csv', full_name: 'A B', contact_emails: [{ email: 'a@b.c' }] };
    const ordered = withSortedKeys(value);
    expect(Object.keys(ordered)).toEqual(['contact_emails', 'full_name', 'source']);
    expect(ordered).toEqual(value);
    // Only its own keys: its members are left as they are.
    expect(withSortedKeys({ b: { z: 1, y: 2 }, a: 1 }).b).toEqual({ z: 1, y: 2 });
  });
});
