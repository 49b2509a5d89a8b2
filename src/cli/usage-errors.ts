import { nearest } from '../core/nearest.js';

/** yargs' wording for unknown flags and words (its `strict()` mode). */
const UNKNOWN = /^Unknown arguments?: (.+)$/;

export interface KnownWords {
  commands: readonly string[];
  /** Long flag names without dashes, of the command being run (or the top level). */
  flags: readonly string[];
  /** The long flags of the other commands, by command: a flag typed to the wrong one is named. */
  elsewhere?: Readonly<Record<string, readonly string[]>>;
}

/** `--dry-rn` given to validate: the flag meant, and the command that has it. */
const otherCommandsFlag = (
  word: string,
  known: KnownWords,
): { command: string; flag: string } | undefined => {
  for (const [command, flags] of Object.entries(known.elsewhere ?? {})) {
    const flag = flags.includes(word) ? word : nearest(word, flags);
    if (flag !== undefined) return { command, flag };
  }
  return undefined;
};

/**
 * One line for a usage mistake, with the nearest known command or flag when a word looks like a
 * typo of one (`--concurency` -> `--concurrency`, `valdate` -> `validate`). `args` is argv as typed.
 */
export const usageLine = (message: string, known: KnownWords, args: readonly string[]): string => {
  const command = known.commands.includes(args[0] ?? '') ? args[0] : undefined;
  const help = `Run 'contact-import ${command ? `${command} ` : ''}--help' for usage.`;
  if (command && /^Not enough non-option arguments/.test(message)) {
    return `${command} needs at least one input file: contact-import ${command} [pipeline] <inputs..>. ${help}`;
  }
  const unknown = UNKNOWN.exec(message);
  if (!unknown) return `${message.replace(/\.?$/, '.')} ${help}`;
  const word = unknown[1]!.split(', ')[0]!;
  const typedFlag = args.find((a) => a === `--${word}` || a.startsWith(`--${word}=`) || a === `-${word}`);
  if (typedFlag !== undefined) {
    const suggestion = nearest(word, known.flags);
    const flag = typedFlag.split('=')[0]!;
    const other = suggestion || !command ? undefined : otherCommandsFlag(word, known);
    if (other && command === 'validate' && other.flag === 'dry-run') {
      return `unknown option ${flag}; validate is always a dry run (did you mean \`run --dry-run\`?). ${help}`;
    }
    if (other) {
      const same = `--${other.flag}` === flag ? 'it' : `--${other.flag}`;
      return `unknown option ${flag}: ${same} is an option of ${other.command}, not of ${command}. ${help}`;
    }
    return `unknown option ${flag}${suggestion ? `; did you mean --${suggestion}?` : '.'} ${help}`;
  }
  if (!command) {
    const suggestion = nearest(word, known.commands);
    return (
      `unknown command "${word}"${suggestion ? `; did you mean \`${suggestion}\`?` : '.'}` +
      ` Commands: ${known.commands.join(', ')}. ${help}`
    );
  }
  return `unexpected argument "${word}" for ${command}. ${help}`;
};
