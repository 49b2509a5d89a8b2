import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { longFlagsOf } from '../../src/cli/flag-table.js';
import { checkTypedNumbers, type TypedNumbers } from '../../src/cli/flag-values.js';
import { usageLine } from '../../src/cli/usage-errors.js';
import { SAMPLES, runCli, tempDir, type CliResult } from './harness.js';
import { runAsCli, stopOf } from './cli-in-process.js';

const SAMPLE = join(SAMPLES, 'address-book.csv');
/** What the `generic` built-in reads whole (a named built-in that would leave columns unused stops). */
const GENERIC_SAMPLE = join(SAMPLES, 'generic.csv');

/** Exit 2, one line on stderr, no stack trace, nothing on stdout, nothing written in the folder. */
const expectOneLineRefusal = (result: CliResult, cwd: string): string => {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |Error:/);
  expect(readdirSync(cwd)).toEqual([]);
  return lines[0]!;
};

const refuse = async (args: string[]): Promise<string> => {
  const cwd = tempDir();
  return expectOneLineRefusal(await runCli(args, { cwd }), cwd);
};

/**
 * The line the command prints after `contact-import: ` when yargs fails with `message` on `args`,
 * in this process: the words it knows gathered as src/cli/main.ts gathers them (the flags of the
 * command typed, and of each other command).
 */
const usageLineOf = (message: string, args: string[]): string => {
  const names = commands.map((c) => String(c.command).split(' ')[0]!);
  const command = names.includes(args[0] ?? '') ? args[0] : undefined;
  const elsewhere = Object.fromEntries(
    names
      .filter((name) => command !== undefined && name !== command)
      .map((name) => [name, longFlagsOf(name)]),
  );
  return usageLine(message, { commands: names, flags: longFlagsOf(command), elsewhere }, args);
};

describe('exit-2 paths print one line and write nothing', () => {
  it('a missing input names the file and where it was looked for; no summary, no runs/', async () => {
    const line = await refuse(['validate', 'generic', 'nope.csv']);
    expect(line).toMatch(
      /^contact-import: input_not_found: input file nope\.csv does not exist \(looked for \/.*nope\.csv\)/,
    );
    expect(line).not.toMatch(/read 0/);
  });

  it('a mistyped pipeline suggests the nearest built-in', async () => {
    const line = await refuse(['validate', 'genric', SAMPLE]);
    expect(line).toMatch(
      /"genric" is neither a built-in pipeline nor a file; did you mean the pipeline "generic"\?/,
    );
    // `--pipeline genric`: the pipeline loader's error, which the command prints as its one line
    // (as above); in this process, with nothing written in the folder either.
    const cwd = tempDir();
    const forced = await stopOf(
      runAsCli({ cwd, pipeline: 'genric', inputs: [SAMPLE], out: 'out', dryRun: true }),
    );
    expect(forced?.message).toMatch(/no built-in pipeline "genric"; did you mean "generic"\?/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an option value is reported with the flag as typed', async () => {
    // Request flags are run's (validate sends nothing): checked on a dry run.
    const line = await refuse(['run', '--dry-run', 'generic', SAMPLE, '--chunk-size', 'abc']);
    expect(line).toBe(
      'contact-import: config_invalid: --chunk-size must be a whole number from 1 to 500, got "abc"',
    );
  });

  // The line above is the command printing what checkTypedNumbers throws; the other values are
  // checked there, in this process.
  it.each([
    [{ chunkSize: '5000' }, '--chunk-size must be a whole number from 1 to 500, got "5000"'],
    [{ concurrency: '0' }, '--concurrency must be a whole number from 1 to 64, got "0"'],
    [{ maxRejects: 'lots' }, '--max-rejects must be a count or a percentage like 5%, got "lots"'],
    [{ timeout: 'soon' }, '--timeout must be a number of seconds above 0 and at most 3600, got "soon"'],
  ] satisfies [TypedNumbers, string][])('option %j is reported with the flag as typed', (typed, message) => {
    expect(() => checkTypedNumbers(typed)).toThrow(
      expect.objectContaining({ code: 'config_invalid', message }),
    );
  });

  it('a mistyped flag suggests the nearest flag of that command', async () => {
    const line = await refuse(['run', 'generic', SAMPLE, '--dryrun']);
    expect(line).toBe(
      "contact-import: unknown option --dryrun; did you mean --dry-run? Run 'contact-import run --help' for usage.",
    );
  });

  it('validate given a flag of run says whose it is; --dry-rn says validate always is one', async () => {
    expect(await refuse(['validate', 'generic', SAMPLE, '--dry-rn'])).toBe(
      "contact-import: unknown option --dry-rn; validate is always a dry run (did you mean `run --dry-run`?). Run 'contact-import validate --help' for usage.",
    );
    // The command printing usageLine's line is the refusal above; the other flags of run, with
    // yargs' own message for each, in this process.
    expect(
      usageLineOf('Unknown arguments: chunk-size, chunkSize', [
        'validate',
        'generic',
        SAMPLE,
        '--chunk-size',
        '50',
      ]),
    ).toBe(
      "unknown option --chunk-size: it is an option of run, not of validate. Run 'contact-import validate --help' for usage.",
    );
    expect(
      usageLineOf('Unknown argument: target', ['validate', 'generic', SAMPLE, '--target=http://127.0.0.1:9']),
    ).toBe(
      "unknown option --target: it is an option of run, not of validate. Run 'contact-import validate --help' for usage.",
    );
    expect(
      usageLineOf('Unknown argument: concurency', ['validate', 'generic', SAMPLE, '--concurency', '2']),
    ).toBe(
      "unknown option --concurency: --concurrency is an option of run, not of validate. Run 'contact-import validate --help' for usage.",
    );
  });

  it('validate reads no target, not even CONTACT_IMPORT_TARGET', async () => {
    const cwd = tempDir();
    const result = await runCli(
      ['validate', 'generic', GENERIC_SAMPLE, '--max-rejects', '100%', '--out', 'out'],
      {
        cwd,
        env: { CONTACT_IMPORT_TARGET: 'http://127.0.0.1:9', CONTACT_IMPORT_API_KEY: 'k' },
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Dry run \S+ completed in [\d.]+s \(pipeline generic\)\n/);
    expect(result.stdout).not.toMatch(/target/);
  });

  it('a mistyped command suggests the nearest command', async () => {
    const line = await refuse(['valdate', 'generic', SAMPLE]);
    expect(line).toMatch(/^contact-import: unknown command "valdate"; did you mean `validate`\?/);
  });

  it('a command without its inputs says what it needs', async () => {
    const line = await refuse(['validate']);
    expect(line).toMatch(/validate needs at least one input file/);
  });

  // The command line takes a percentage in the test above (validate reads no target).
  it('a valid count and a valid percentage are accepted', () => {
    expect(checkTypedNumbers({ maxRejects: '100%', chunkSize: '50' })).toEqual({
      maxRejects: '100%',
      chunkSize: 50,
    });
    expect(checkTypedNumbers({ maxRejects: '3' })).toEqual({ maxRejects: '3' });
  });
});
