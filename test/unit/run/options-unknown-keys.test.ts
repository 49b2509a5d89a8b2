import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/core/errors/index.js';
import { parseRunSettings } from '../../../src/run/options.js';

/** The library refuses option keys it does not know, naming the one meant. */
describe('parseRunSettings refuses unknown keys', () => {
  const refused = (input: object, others: string[] = []): ImportError => {
    try {
      parseRunSettings(input as never, others);
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      return error as ImportError;
    }
    return expect.unreachable();
  };

  it.each([
    ['out', 'outDir'],
    ['state', 'stateDir'],
    ['chunksize', 'chunkSize'],
    ['maxReject', 'maxRejects'],
    ['dryrun', 'dryRun'],
  ])('%s -> did you mean %s?', (typed, meant) => {
    const error = refused({ inputs: ['a.csv'], [typed]: 'x' });
    expect(error.code).toBe('config_invalid');
    expect(error.message).toBe(`unknown option ${typed}; did you mean ${meant}?`);
    expect(error.context).toEqual({ field: typed });
  });

  it('a key like nothing known lists the options', () => {
    expect(refused({ inputs: ['a.csv'], colour: 'blue' }, ['pipeline']).message).toMatch(
      /^unknown option colour; the options are inputs, sheet, dryRun, outDir, stateDir, .*, pipeline$/,
    );
  });

  it("the caller's own keys pass, and a near miss of one of them is named", () => {
    expect(
      parseRunSettings({ inputs: ['a.csv'], pipeline: 'generic' } as never, ['pipeline']).inputs,
    ).toEqual(['a.csv']);
    expect(refused({ inputs: ['a.csv'], pipelin: 'generic' }, ['pipeline']).message).toBe(
      'unknown option pipelin; did you mean pipeline?',
    );
  });
});
