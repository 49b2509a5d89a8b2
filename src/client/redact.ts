/** What a secret is replaced with wherever text leaves the process (messages, logs, reports). */
export const REDACTED = '[REDACTED]';

/**
 * Secrets at least this long are replaced wherever they occur, even glued to other characters
 * (`%2F<key>`, `Bearer<key>`): a random string that long does not turn up inside ordinary words.
 * A shorter secret ("net") is a piece of many words ("network"), so it is replaced only where it
 * stands alone as a token, with no letter or digit right before or after it. A short key glued to
 * letters therefore stays visible; keys that short are weak anyway, and mangling every word that
 * contains them would make messages unreadable (issue 14).
 */
export const MIN_SECRET_REPLACED_ANYWHERE = 8;

/** A letter or digit of any script: what makes a short secret part of a longer word. */
const WORD_CHAR = '[\\p{L}\\p{N}]';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A redactor for `secrets`, compiled once. Longer secrets go first so that a secret containing
 * another one is not left half-visible. Empty secrets are ignored: replacing the empty string
 * would mangle every character boundary and hide nothing.
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const patterns = secrets
    .filter((secret) => secret.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((secret) =>
      secret.length >= MIN_SECRET_REPLACED_ANYWHERE
        ? new RegExp(escapeRegExp(secret), 'gu')
        : new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(secret)}(?!${WORD_CHAR})`, 'gu'),
    );
  return (text) => patterns.reduce((result, pattern) => result.replace(pattern, REDACTED), text);
}

/** Replace every whole occurrence of each secret in `text` (see MIN_SECRET_REPLACED_ANYWHERE). */
export function redact(text: string, secrets: readonly string[]): string {
  return createRedactor(secrets)(text);
}
