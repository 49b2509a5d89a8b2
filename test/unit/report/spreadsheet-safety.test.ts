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

describe('an escaped phone cell imported again', () => {
  it('reads back as the same number (docs/report.md promises it)', async () => {
    const { normalizePhone } = await import('../../../src/normalize/index.js');
    const escaped = escapeFormula('+1 415 555 0100');
    expect(escaped).toBe("'+1 415 555 0100");
    expect(normalizePhone(escaped, 'US')).toMatchObject({
      ok: true,
      value: { phone_number_sanitized: '+14155550100' },
    });
  });
});
