import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/core/errors/index.js';
import { parseRunSettings, rejectLimit } from '../../../src/run/options.js';

describe('parseRunSettings', () => {
  it('fills the contract defaults', () => {
    expect(parseRunSettings({ inputs: ['a.csv'] })).toEqual({
      inputs: ['a.csv'],
      dryRun: false,
      stateDir: '.contact-import',
      chunkSize: 100,
      concurrency: 4,
      maxWait: 300,
      maxBodyBytes: 4_900_000,
      match: 'email',
      maxRejects: { count: 0 },
      strict: false,
      reread: false,
      candidates: 'on',
    });
  });

  it.each([
    ['5', { count: 5 }],
    ['2.5%', { percent: 2.5 }],
    [3, { count: 3 }],
  ])('reads --max-rejects %j', (value, expected) => {
    expect(parseRunSettings({ inputs: ['a'], maxRejects: value }).maxRejects).toEqual(expected);
  });

  it('upper-cases a known region and refuses an unknown one', () => {
    expect(parseRunSettings({ inputs: ['a'], region: 'gb' }).region).toBe('GB');
    expect(() => parseRunSettings({ inputs: ['a'], region: 'XX' })).toThrow(/option region/);
  });

  it.each([
    [{ inputs: [] }, 'inputs'],
    [{ inputs: ['a'], chunkSize: 0 }, 'chunkSize'],
    [{ inputs: ['a'], chunkSize: 501 }, 'chunkSize'],
    [{ inputs: ['a'], concurrency: 1.5 }, 'concurrency'],
    [{ inputs: ['a'], maxRejects: 'ten' }, 'maxRejects'],
  ])('refuses %j with config_invalid naming %s', (input, field) => {
    try {
      parseRunSettings(input as never);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect(error).toMatchObject({ code: 'config_invalid', context: { field } });
    }
  });
});

describe('rejectLimit', () => {
  it('is the count, or the percentage of records read rounded down', () => {
    expect(rejectLimit({ count: 3 }, 1000)).toBe(3);
    expect(rejectLimit({ percent: 5 }, 199)).toBe(9);
    expect(rejectLimit({ percent: 0 }, 199)).toBe(0);
  });
});
