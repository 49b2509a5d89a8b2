import type { CommandModule } from 'yargs';

/** Every command of the CLI; each lives in its own file beside this one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [];
