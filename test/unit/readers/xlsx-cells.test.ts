import { describe, expect, it } from 'vitest';
import { plainNumber, showCell, type RawCell } from '../../../src/readers/xlsx-cells.js';
import type { WorkbookModel } from '../../../src/readers/xlsx-parts.js';

const workbook = (styleFormats: string[], extra: Partial<WorkbookModel> = {}): WorkbookModel => ({
  sheets: [],
  date1904: false,
  sharedStrings: ['shared zero', 'line_x000D_break'],
  styleFormats,
  ...extra,
});

const cell = (value: string, type?: string, style = 0, inline = ''): RawCell => ({
  type,
  style,
  value,
  inline,
});

describe('showCell', () => {
  it('shows strings: shared, inline (rich runs joined by the reader), formula results, OOXML escapes', () => {
    const wb = workbook(['General']);
    expect(showCell(cell('0', 's'), wb)).toBe('shared zero');
    expect(showCell(cell('7', 's'), wb)).toBe('');
    expect(showCell(cell('', 'inlineStr', 0, 'a_x000D_b'), wb)).toBe('a\rb');
    expect(showCell(cell('=not a formula', 'str'), wb)).toBe('=not a formula');
  });

  it('shows booleans as TRUE / FALSE and errors as written', () => {
    const wb = workbook(['General']);
    expect(showCell(cell('1', 'b'), wb)).toBe('TRUE');
    expect(showCell(cell('0', 'b'), wb)).toBe('FALSE');
    expect(showCell(cell('#N/A', 'e'), wb)).toBe('#N/A');
  });

  it('shows General numbers with all their digits, never an exponent', () => {
    const wb = workbook(['General', '@']);
    expect(showCell(cell('442079460000'), wb)).toBe('442079460000');
    expect(showCell(cell('4.4207946E+11'), wb)).toBe('442079460000');
    expect(showCell(cell('1E+21'), wb)).toBe('1000000000000000000000');
    expect(showCell(cell('1.5E-7'), wb)).toBe('0.00000015');
    expect(showCell(cell('0.30000000000000004'), wb)).toBe('0.3');
    expect(showCell(cell('12025550143', 'n', 1), wb)).toBe('12025550143');
    expect(showCell(cell(''), wb)).toBe('');
    expect(plainNumber(-0)).toBe('0');
  });

  it('applies number formats: fixed digits, grouping, percent, conditions', () => {
    const wb = workbook(['0', '#,##0.00', '0.0%', '[<=9999999]###-####;(###) ###-####', '_("$"* #,##0_)']);
    expect(showCell(cell('12025550143', 'n', 0), wb)).toBe('12025550143');
    expect(showCell(cell('1234.5', 'n', 1), wb)).toBe('1,234.50');
    expect(showCell(cell('0.125', 'n', 2), wb)).toBe('12.5%');
    expect(showCell(cell('2125550000', 'n', 3), wb)).toBe('(212) 555-0000');
    expect(showCell(cell('1234', 'n', 4), wb)).toMatch(/^\$\s*1,234$/);
  });

  it('shows a date-formatted serial as an ISO date, a year-less format as --MM-DD, a time after T', () => {
    const wb = workbook(['m/d/yyyy', 'd mmm', 'yyyy-mm-dd hh:mm:ss', 'h:mm', 'mmm yyyy']);
    expect(showCell(cell('45366'), wb)).toBe('2024-03-15');
    expect(showCell(cell('45648', 'n', 1), wb)).toBe('--12-22');
    expect(showCell(cell('45366.60451388889', 'n', 2), wb)).toBe('2024-03-15T14:30:30');
    expect(showCell(cell('0.5', 'n', 3), wb)).toBe('12:00');
    expect(showCell(cell('45366', 'n', 4), wb)).toBe('Mar 2024');
  });

  it('counts serials from 1904 in a 1904 workbook', () => {
    const wb = workbook(['yyyy-mm-dd'], { date1904: true });
    expect(showCell(cell('0'), wb)).toBe('1904-01-01');
    expect(showCell(cell('43904'), wb)).toBe('2024-03-15');
  });

  it('keeps the date part of an ISO date cell (t="d") shown without a time', () => {
    const wb = workbook(['yyyy-mm-dd', 'yyyy-mm-dd hh:mm']);
    expect(showCell(cell('2024-03-15T00:00:00Z', 'd', 0), wb)).toBe('2024-03-15');
    expect(showCell(cell('2024-03-15T10:00:00Z', 'd', 1), wb)).toBe('2024-03-15T10:00:00Z');
  });

  it('falls back to plain digits for a style it does not know or a format it cannot apply', () => {
    const wb = workbook(['0"unclosed']);
    expect(showCell(cell('42', 'n', 0), wb)).toBe('42');
    expect(showCell(cell('42', 'n', 9), wb)).toBe('42');
    expect(showCell(cell('not a number', 'n', 9), wb)).toBe('not a number');
  });
});
