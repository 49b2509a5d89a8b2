/**
 * yargs drops a lone `-` positional (yargs#1312, yargs-parser#381), but `-` is how a user says
 * "read standard input". It is swapped for a placeholder before parsing and back after.
 */
export const STDIN_PLACEHOLDER = '\u0000stdin';

export const protectStdinDash = (argv: string[]): string[] => {
  const end = argv.indexOf('--');
  return argv.map((arg, i) => (arg === '-' && (end === -1 || i < end) ? STDIN_PLACEHOLDER : arg));
};

export const restoreStdinDash = (inputs: string[]): string[] =>
  inputs.map((p) => (p === STDIN_PLACEHOLDER ? '-' : p));
