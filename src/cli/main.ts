#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { commands } from './commands/index.js';
import { protectStdinDash } from './stdin-dash.js';

/** The command layer: parses flags, prints, and exits. The library below never does. */
const cli = yargs(protectStdinDash(hideBin(process.argv)))
  .scriptName('contact-import')
  .strict()
  .demandCommand(1, 'Name a command: run, validate, serve or pipelines.')
  .help()
  .version()
  .fail((message, error) => {
    if (error) throw error;
    process.stderr.write(`contact-import: ${message}\nRun 'contact-import --help' for usage.\n`);
    process.exit(2);
  });

for (const command of commands) cli.command(command);

await cli.parseAsync();
