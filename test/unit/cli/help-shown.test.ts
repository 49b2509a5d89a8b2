import { afterEach, describe, expect, it } from 'vitest';
import { FLAG_TABLE } from '../../../src/cli/flag-table.js';
import { asksForHelp, flagsFor, helpText, positionalFor, setHelpShown } from '../../../src/cli/help-shown.js';

// The switch is module state: every test leaves it as a fresh process has it (help shown).
afterEach(() => setHelpShown(true));

describe('help text handed to yargs only when help may print', () => {
  it('asks for help with --help or --help=..., not after -- and not for another flag', () => {
    expect(asksForHelp(['run', 'a.csv', '--help'])).toBe(true);
    expect(asksForHelp(['--help=true'])).toBe(true);
    expect(asksForHelp(['run', '--', '--help'])).toBe(false);
    expect(asksForHelp(['run', 'a.csv', '--helpful'])).toBe(false);
    expect(asksForHelp(['validate', 'a.csv'])).toBe(false);
  });

  it('without help: the same flags, types, choices and defaults, no descriptions, no epilogue', () => {
    setHelpShown(false);
    const flags = flagsFor(FLAG_TABLE.run);
    expect(Object.keys(flags)).toEqual(Object.keys(FLAG_TABLE.run));
    for (const [name, options] of Object.entries(FLAG_TABLE.run)) {
      const { describe: _describe, ...rest } = options as { describe?: string };
      expect(flags[name as keyof typeof flags]).toEqual(rest);
    }
    expect(positionalFor({ type: 'string', describe: 'the input' })).toEqual({ type: 'string' });
    expect(helpText(() => 'Exit codes: ...')).toBe('');
    // The table itself is left as it was: the usage errors read it.
    expect(FLAG_TABLE.run.pipeline).toHaveProperty('describe');
  });

  it('with help: everything as the table has it', () => {
    expect(flagsFor(FLAG_TABLE.validate)).toBe(FLAG_TABLE.validate);
    expect(positionalFor({ type: 'string', describe: 'the input' })).toEqual({
      type: 'string',
      describe: 'the input',
    });
    expect(helpText(() => 'Exit codes: ...')).toBe('Exit codes: ...');
  });
});
