#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { commands } from './commands/index.js';
import { runInsideBoundary } from './boundary.js';
import { longFlagsOf } from './flag-table.js';
import { applyHeapHint } from './heap-hint.js';
import { applyWasmTieringHint } from './wasm-tiering.js';
import { asksForHelp, setHelpShown } from './help-shown.js';
import { protectStdinDash } from './stdin-dash.js';
import { usageLine } from './usage-errors.js';

applyHeapHint();
applyWasmTieringHint();
const args = protectStdinDash(hideBin(process.argv));
const helpAsked = asksForHelp(args);
setHelpShown(helpAsked);
const commandNames = commands.map((c) => String(c.command).split(' ')[0]!);

/** The command layer: parses flags, prints, and exits. The library below never does. */
const cli = yargs(args)
  .scriptName('contact-import')
  .strict()
  .demandCommand(1, 'Name a command: run, validate, serve or pipelines.')
  .help()
  .version()
  // The terminal's width, else (a pipe, a CI log) 110: command names and examples stay on one line.
  // No wrapping when no help prints: yargs lays the text out on every run all the same.
  .wrap(helpAsked ? Math.min(110, process.stdout.columns || 110) : null)
  .fail((message, error) => {
    if (error) throw error;
    const command = commandNames.includes(args[0] ?? '') ? args[0] : undefined;
    const flags = longFlagsOf(command);
    const elsewhere = Object.fromEntries(
      commands
        .filter((c) => command !== undefined && String(c.command).split(' ')[0] !== command)
        .map((c) => String(c.command).split(' ')[0]!)
        .map((name) => [name, longFlagsOf(name)]),
    );
    process.stderr.write(
      `contact-import: ${usageLine(message, { commands: commandNames, flags, elsewhere }, args)}\n`,
    );
    process.exit(2);
  });

for (const command of commands) cli.command(command);

await runInsideBoundary(args, () => cli.parseAsync());
