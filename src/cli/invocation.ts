import { basename, relative } from 'node:path';
import { shellQuote } from '../report/shell-quote.js';

/**
 * How to call this CLI again in a hint the user can paste (quoted for a POSIX shell): `contact-import` when it was run
 * through the installed bin, else `node <path to main.js>` as it was run from a checkout.
 */
export const invocation = (argv: string[] = process.argv, cwd: string = process.cwd()): string => {
  const script = argv[1] ?? '';
  if (basename(script) === 'contact-import') return 'contact-import';
  const path = relative(cwd, script) || script;
  return `node ${shellQuote(path)}`;
};
