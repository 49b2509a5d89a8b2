#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { commands } from './commands/index.js';
import { runInsideBoundary } from './boundary.js';
import { applyHeapHint } from './heap-hint.js';
import { protectStdinDash } from './stdin-dash.js';
import { usageLine } from './usage-errors.js';

applyHeapHint();
const args = protectStdinDash(hideBin(process.argv));
const commandNames = commands.map((c) => String(c.command).split(' ')[0]!);

/** yargs keeps the options of the command being parsed here (not in its published types). */
const optionsOf = (instance: object): { key: Record<string, unknown> } =>
  (instance as { getOptions(): { key: Record<string, unknown> } }).getOptions();

const longFlags = (instance: object): string[] =>
  Object.keys(optionsOf(instance).key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));

/** The long flags a command's builder declares (built on a throwaway parser, only to name them). */
const flagsOfCommand = (command: (typeof commands)[number]): string[] => {
  const parser = yargs([]);
  if (typeof command.builder === 'function') command.builder(parser);
  else if (command.builder) parser.options(command.builder);
  return longFlags(parser);
};

/** The command layer: parses flags, prints, and exits. The library below never does. */
const cli = yargs(args)
  .scriptName('contact-import')
  .strict()
  .demandCommand(1, 'Name a command: run, validate, serve or pipelines.')
  .help()
  .version()
  // The terminal's width, else (a pipe, a CI log) 110: command names and examples stay on one line.
  .wrap(Math.min(110, process.stdout.columns || 110))
  .fail((message, error) => {
    if (error) throw error;
    const flags = longFlags(cli);
    const command = commandNames.includes(args[0] ?? '') ? args[0] : undefined;
    const elsewhere = Object.fromEntries(
      commands
        .filter((c) => command !== undefined && String(c.command).split(' ')[0] !== command)
        .map((c) => [String(c.command).split(' ')[0]!, flagsOfCommand(c)]),
    );
    process.stderr.write(
      `contact-import: ${usageLine(message, { commands: commandNames, flags, elsewhere }, args)}\n`,
    );
    process.exit(2);
  });

for (const command of commands) cli.command(command);

await runInsideBoundary(args, () => cli.parseAsync());
