import { describe, expect, it } from 'vitest';
import { escapeFormula, isFormulaLeading } from '../../../src/report/spreadsheet-safety.js';

describe('escapeFormula', () => {
  it.each(['=SUM(A1:A2)', '+1 415 555 0100', '-2+3', '@cmd', '\tTAB', '\rCR'])('escapes %j', (cell) => {
    expect(isFormulaLeading(cell)).toBe(true);
    expect(escapeFormula(cell)).toBe(`'${cell}`);
  });
  it.each(['plain', '', ' =not first', "'=already"])('leaves %j alone', (cell) => {
    expect(escapeFormula(cell)).toBe(cell);
  });
});
