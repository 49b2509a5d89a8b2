import { setFlagsFromString } from 'node:v8';

/** Whether node's command line or NODE_OPTIONS gives the V8 flag `--name` (dashes or underscores). */
export const v8FlagGiven = (name: string, execArgv: readonly string[], nodeOptions = ''): boolean => {
  const spelled = new RegExp(`--${name.split('-').join('[-_]')}(=|\\s|$)`);
  return [...execArgv, nodeOptions].some((flag) => spelled.test(flag));
};

/**
 * Sets a V8 flag of the process (`--name=value`) unless node's command line or NODE_OPTIONS gives
 * it already: the command line sets what its own process needs, and a user's choice wins. Only
 * the CLI calls this; the library never changes its host process.
 */
export const setV8FlagUnlessGiven = (name: string, value: number): void => {
  if (!v8FlagGiven(name, process.execArgv, process.env.NODE_OPTIONS))
    setFlagsFromString(`--${name}=${value}`);
};
