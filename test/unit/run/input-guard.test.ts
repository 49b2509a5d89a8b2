import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertOutputsSpareInputs, stateFilesOf } from '../../../src/run/input-guard.js';
import { tempDir } from '../../support/temp-dirs.js';

/** A folder with `data/people.csv` in it, and a link `alias` to `data`. */
const layout = (): { dir: string; input: string } => {
  const dir = tempDir();
  mkdirSync(join(dir, 'data'));
  const input = join(dir, 'data', 'people.csv');
  writeFileSync(input, 'email\na@example.com\n');
  symlinkSync(join(dir, 'data'), join(dir, 'alias'));
  return { dir, input };
};

const codeOf = (check: () => void): string | undefined => {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('assertOutputsSpareInputs', () => {
  it('refuses an output that is the input under another spelling: relative, through a linked folder, a link to the file', () => {
    const { dir, input } = layout();
    symlinkSync(input, join(dir, 'link.csv'));
    for (const output of [
      relative(process.cwd(), input),
      join(dir, 'alias', 'people.csv'),
      join(dir, 'alias', '..', 'data', 'people.csv'),
      join(dir, 'link.csv'),
    ]) {
      expect(
        codeOf(() => assertOutputsSpareInputs([input], [output])),
        output,
      ).toBe('output_replaces_input');
    }
    expect(codeOf(() => assertOutputsSpareInputs([join(dir, 'alias', 'people.csv')], [input]))).toBe(
      'output_replaces_input',
    );
  });

  it('refuses a hard link to the input under an output name', () => {
    const { dir, input } = layout();
    linkSync(input, join(dir, 'report.json'));
    expect(codeOf(() => assertOutputsSpareInputs([input], [join(dir, 'report.json')]))).toBe(
      'output_replaces_input',
    );
  });

  it('lets outputs that do not exist yet through, in folders that do not exist yet, under a linked folder too', () => {
    const { dir, input } = layout();
    const outputs = [
      join(dir, 'alias', 'runs', 'new', 'report.json'),
      join(dir, 'runs', 'new', 'issues.csv'),
      join(dir, 'data', 'people.rejected.csv'),
      ...stateFilesOf(join(dir, 'alias', 'state')),
    ];
    expect(codeOf(() => assertOutputsSpareInputs([input, '-'], outputs))).toBeUndefined();
  });

  it('takes a dangling link for the file it does not name, and stdin for no file', () => {
    const { dir, input } = layout();
    symlinkSync(join(dir, 'nowhere.csv'), join(dir, 'dangling.csv'));
    expect(codeOf(() => assertOutputsSpareInputs([input], [join(dir, 'dangling.csv')]))).toBeUndefined();
    expect(codeOf(() => assertOutputsSpareInputs(['-'], ['-']))).toBeUndefined();
  });
});
