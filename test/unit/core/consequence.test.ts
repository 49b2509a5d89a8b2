import { describe, expect, it } from 'vitest';
import { recordNotLoaded, valueLeftOut } from '../../../src/core/consequence.js';

describe('consequence wording', () => {
  it('ends a warning with what happened to the value, once', () => {
    expect(valueLeftOut('Date "2/30" does not exist.', true)).toBe(
      'Date "2/30" does not exist. Left out; the contact is loaded without it.',
    );
    expect(valueLeftOut('3 more e-mails left out: a record keeps its first 50', true)).toBe(
      '3 more e-mails left out: a record keeps its first 50',
    );
  });

  it('ends an error with the record not loaded, unless the message says so already', () => {
    expect(recordNotLoaded('the service refused it (400): bad website;')).toBe(
      'the service refused it (400): bad website. The record is not loaded.',
    );
    expect(recordNotLoaded('Row 3 is longer than 16 MB; it was not read.')).toBe(
      'Row 3 is longer than 16 MB; it was not read.',
    );
  });
});
