import type { Options, PositionalOptions } from 'yargs';

/**
 * Whether this start may print help; main.ts says so from the arguments before yargs reads them.
 * Only then do the builders hand yargs the descriptions, epilogues and examples: yargs lays out a
 * command's whole help text each time the command runs (it keeps it in case the handler asks for
 * it), measuring the width of every character as it goes, and a run that prints no help would pay
 * for that on every start. Flags, types, choices and defaults are handed over either way, so
 * parsing and the usage errors are the same.
 */
let shown = true;

export const setHelpShown = (value: boolean): void => {
  shown = value;
};

/** `--help` among the arguments (yargs takes `--help=true` too); `--` ends the flags. */
export const asksForHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a.startsWith('--help='));
};

type Described = { describe?: unknown };

const withoutDescription = <T extends Described>(options: T): T => {
  if (shown) return options;
  const rest = { ...options };
  delete rest.describe;
  return rest;
};

/** A command's row of flags as yargs takes it: described only when help may be printed. */
export const flagsFor = <T extends Record<string, Options>>(flags: T): T =>
  shown
    ? flags
    : (Object.fromEntries(
        Object.entries(flags).map(([name, options]) => [name, withoutDescription(options)]),
      ) as T);

/** A positional's options, described only when help may be printed. */
export const positionalFor = <T extends PositionalOptions>(options: T): T => withoutDescription(options);

/** An epilogue's text, made only when help may be printed. */
export const helpText = (make: () => string): string => (shown ? make() : '');
