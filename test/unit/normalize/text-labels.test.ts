import { describe, expect, it } from 'vitest';
import { normalizeEmailLabel, normalizePhoneLabel } from '../../../src/normalize/labels.js';
import { normalizeText } from '../../../src/normalize/text.js';

describe('normalizeText', () => {
  it('trims, collapses inner whitespace and composes to NFC', () => {
    expect(normalizeText('  Jane \t\n  Doe  ')).toBe('Jane Doe');
    expect(normalizeText('Jane\u00a0Doe')).toBe('Jane Doe');
    expect(normalizeText('Ju\u0308rgen')).toBe('J\u00fcrgen');
  });

  it('makes empty values absent', () => {
    expect(normalizeText('')).toBeUndefined();
    expect(normalizeText('   \t ')).toBeUndefined();
    expect(normalizeText(null)).toBeUndefined();
    expect(normalizeText(undefined)).toBeUndefined();
  });

  it('turns numbers and booleans into text, and nothing else', () => {
    expect(normalizeText(42)).toBe('42');
    expect(normalizeText(1.5)).toBe('1.5');
    expect(normalizeText(false)).toBe('false');
    expect(normalizeText(Number.NaN)).toBeUndefined();
    expect(normalizeText({ a: 1 })).toBeUndefined();
    expect(normalizeText(['a'])).toBeUndefined();
  });
});

describe('normalizeEmailLabel', () => {
  const cases: [string | undefined, string][] = [
    ['* Work', 'work'],
    ['Business', 'work'],
    ['WORK', 'work'],
    ['Personal', 'home'],
    ['Home', 'home'],
    ['Private', 'home'],
    ['Other', 'other'],
    ['Custom', 'other'],
    ['Internet', 'other'],
    ['', 'other'],
    [undefined, 'other'],
  ];
  for (const [label, expected] of cases) {
    it(`${JSON.stringify(label)} -> ${expected}`, () => expect(normalizeEmailLabel(label)).toBe(expected));
  }
});

describe('normalizePhoneLabel', () => {
  const cases: [string | undefined, string][] = [
    ['Mobile', 'mobile'],
    ['* Cell', 'mobile'],
    ['Mobile Phone', 'mobile'],
    ['Work Mobile', 'mobile'],
    ['Business Phone', 'work'],
    ['Business Phone 2', 'work'],
    ['Home Phone', 'home'],
    ['Business Fax', 'fax'],
    ['Home Fax', 'fax'],
    ['Primary Phone', 'main'],
    ['Company Main Phone', 'main'],
    ['Pager', 'other'],
    ["Assistant's Phone", 'other'],
    [undefined, 'other'],
  ];
  for (const [label, expected] of cases) {
    it(`${JSON.stringify(label)} -> ${expected}`, () => expect(normalizePhoneLabel(label)).toBe(expected));
  }
});
