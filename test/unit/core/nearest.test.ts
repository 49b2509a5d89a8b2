import { describe, expect, it } from 'vitest';
import { nearest } from '../../../src/core/nearest.js';

describe('nearest', () => {
  const pipelines = ['address-book-csv', 'generic', 'mail-client-csv', 'vcard', 'worknet-connections'];

  it('suggests the closest name for a typo', () => {
    expect(nearest('genric', pipelines)).toBe('generic');
    expect(nearest('vcrad', pipelines)).toBe('vcard');
    expect(nearest('concurency', ['concurrency', 'chunk-size'])).toBe('concurrency');
    expect(nearest('valdate', ['run', 'validate', 'serve', 'pipelines'])).toBe('validate');
  });

  it('suggests nothing for a word that is not near any', () => {
    expect(nearest('spreadsheet', pipelines)).toBeUndefined();
    expect(nearest('x', ['run', 'validate'])).toBeUndefined();
  });

  it('does not suggest the word itself', () => {
    expect(nearest('generic', pipelines)).toBeUndefined();
  });
});
