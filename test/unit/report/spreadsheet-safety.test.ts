import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.js';
import {
  escapeFormula,
  isFormulaLeading,
  needsFormulaGuard,
  removeFormulaGuard,
} from '../../../src/report/spreadsheet-safety.js';

describe('escapeFormula', () => {
  it.each([
    '=SUM(A1:A2)',
    '=HYPERLINK("http://x")',
    '@SUM(A1)',
    '-2+3',
    '+2-3',
    '-2-3',
    '+12-34',
    '@cmd',
    '\tTAB',
    '\rCR',
    '+1 212 555 0000 ext 5',
    '-',
    '+',
  ])('escapes %j', (cell) => {
    expect(isFormulaLeading(cell)).toBe(true);
    expect(escapeFormula(cell)).toBe(`'${cell}`);
  });
  it.each(['plain', '', ' =not first', "'plain", '(212) 555-0000'])('leaves %j alone', (cell) => {
    expect(escapeFormula(cell)).toBe(cell);
  });
  it.each([
    '+1 212 555 0000',
    '+1 415 555 0100',
    '+1-212-555-0000',
    '+1.212.555.0000',
    '+44 (0)20 7946 0958',
    '+1 (212) 555-0000',
    '-5',
    '-3.25',
    '-1 000 000',
    '+5',
  ])('leaves the number or phone %j as it is', (cell) => {
    expect(isFormulaLeading(cell)).toBe(false);
    expect(escapeFormula(cell)).toBe(cell);
  });
});

describe('an escaped phone cell imported again', () => {
  it('reads back as the same number (docs/report.md promises it)', async () => {
    const { normalizePhone } = await import('../../../src/normalize/index.js');
    // A phone is no longer escaped, but one escaped by an earlier version (or typed with a
    // leading ' in a spreadsheet) still reads back as the number.
    expect(escapeFormula('+1 415 555 0100')).toBe('+1 415 555 0100');
    const escaped = "'+1 415 555 0100";
    expect(normalizePhone(escaped, 'US')).toMatchObject({
      ok: true,
      value: { phone_number_sanitized: '+14155550100' },
    });
  });
});

describe('removeFormulaGuard', () => {
  it.each([
    '=Chief',
    '- met at conf',
    '@ada',
    "'=already",
    "''@x",
    'plain',
    "'plain",
    '',
    '+1 212 555 0000',
    '-5',
    '\tTAB',
  ])('gives back %j from what escapeFormula wrote', (cell) => {
    expect(removeFormulaGuard(escapeFormula(cell))).toBe(cell);
  });
  it('guards a value that is an apostrophe and a formula once more, so reading it back is exact', () => {
    expect(escapeFormula("'=already")).toBe("''=already");
    expect(removeFormulaGuard("'plain")).toBe("'plain");
  });
});

describe('needsFormulaGuard', () => {
  it('answers what the full check answers, its first-character shortcut included, over 20,000 random cells', () => {
    const alphabet = [
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      "'",
      '1',
      '2',
      ' ',
      '(',
      ')',
      '.',
      'a',
      'Z',
      'é',
      '"',
      ',',
    ];
    const random = seededRandom(11);
    let guarded = 0;
    for (let n = 0; n < 20_000; n++) {
      let cell = '';
      const length = Math.floor(random() * 10);
      for (let k = 0; k < length; k++) cell += alphabet[Math.floor(random() * alphabet.length)]!;
      const expected = isFormulaLeading(cell.replace(/^'+/, ''));
      expect(needsFormulaGuard(cell), JSON.stringify(cell)).toBe(expected);
      if (expected) guarded++;
    }
    // The draw reaches both answers, many times each.
    const passedAsIs = 20_000 - guarded;
    expect(guarded).toBeGreaterThan(2_000);
    expect(passedAsIs).toBeGreaterThan(2_000);
  });
});
