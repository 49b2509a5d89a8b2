import { afterEach, describe, expect, it } from 'vitest';
import { normalizePhone } from '../../../src/normalize/phones.js';

/**
 * patches/libphonenumber-js+*.patch (applied by `npm install`): the phone library builds each
 * metadata pattern's RegExp once, not on every call. Without the patch a warm `normalizePhone`
 * builds several RegExps a number, a tenth of a dry run's CPU (bench/README.md).
 */
describe('phone patterns are compiled once', () => {
  const original = globalThis.RegExp;
  afterEach(() => {
    globalThis.RegExp = original;
  });

  it('normalizes numbers it has seen the patterns of without building a RegExp', () => {
    const numbers = [
      '+1 646 201 1001',
      '+34 612 202 002',
      '020 8366 1177',
      '+49 30 901820',
      '+81 3-1234-5678',
    ];
    // Warm: the first number of each region builds its patterns.
    const before = numbers.map((n) => normalizePhone(n, 'GB'));
    let built = 0;
    globalThis.RegExp = new Proxy(original, {
      construct(target, args) {
        built += 1;
        return Reflect.construct(target, args) as object;
      },
    });
    const again = numbers.map((n) => normalizePhone(n, 'GB'));
    globalThis.RegExp = original;
    expect(again).toEqual(before);
    expect(before.every((outcome) => outcome.ok)).toBe(true);
    expect(built).toBe(0);
  });
});
