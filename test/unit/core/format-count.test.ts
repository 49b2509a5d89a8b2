import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/core/format-count.js';

describe('formatCount', () => {
  it("writes a number as toLocaleString('en-US') does", () => {
    const values = [
      0,
      -0,
      1,
      -1,
      12,
      999,
      1000,
      1001,
      12_345,
      100_000,
      999_999,
      1_000_000,
      -1_234_567,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53,
      1.5,
      1234.5678,
      0.1,
      NaN,
      Infinity,
    ];
    for (let digits = 1; digits <= 16; digits++) values.push(Number('9'.repeat(digits)), 10 ** (digits - 1));
    for (const value of values) expect(formatCount(value), String(value)).toBe(value.toLocaleString('en-US'));
  });

  it('groups a whole number by threes', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1000)).toBe('-1,000');
  });
});
