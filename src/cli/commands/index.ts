import type { CommandModule } from 'yargs';
import { initCommand } from './init.js';
import { pipelinesCommand } from './pipelines.js';
import { runCommand } from './run.js';
import { runsCommand } from './runs.js';
import { serveCommand } from './serve.js';
import { undoCommand } from './undo.js';
import { validateCommand } from './validate.js';

/** Every command of the CLI; each lives in its own file beside this one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  runCommand,
  validateCommand,
  undoCommand,
  runsCommand,
  serveCommand,
  pipelinesCommand,
  initCommand,
];
