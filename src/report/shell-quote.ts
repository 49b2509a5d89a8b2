/** Characters a POSIX shell takes literally in a word: such a word is printed as it is. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument for a POSIX shell (sh, bash, zsh; Git Bash or WSL on Windows): as it is when
 * every character is plain, else in single quotes, inside which nothing is expanded (`$(...)`,
 * backquotes, `*` and spaces stay text); a quote inside becomes `'\''`.
 */
export const shellQuote = (word: string): string =>
  word !== '' && PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/** A command line of words, each quoted for a POSIX shell. */
export const shellLine = (words: readonly string[]): string => words.map(shellQuote).join(' ');
