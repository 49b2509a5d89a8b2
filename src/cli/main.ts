#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { commands } from './commands/index.js';
import { protectStdinDash } from './stdin-dash.js';
import { usageLine } from './usage-errors.js';

const args = protectStdinDash(hideBin(process.argv));
const commandNames = commands.map((c) => String(c.command).split(' ')[0]!);

/** yargs keeps the options of the command being parsed here (not in its published types). */
const optionsOf = (instance: object): { key: Record<string, unknown> } =>
  (instance as { getOptions(): { key: Record<string, unknown> } }).getOptions();

/** The command layer: parses flags, prints, and exits. The library below never does. */
const cli = yargs(args)
  .scriptName('contact-import')
  .strict()
  .demandCommand(1, 'Name a command: run, validate, serve or pipelines.')
  .help()
  .version()
  .fail((message, error) => {
    if (error) throw error;
    const flags = Object.keys(optionsOf(cli).key).filter((k) => k.length > 1 && !/[A-Z]/.test(k));
    process.stderr.write(`contact-import: ${usageLine(message, { commands: commandNames, flags }, args)}\n`);
    process.exit(2);
  });

for (const command of commands) cli.command(command);

await cli.parseAsync();
