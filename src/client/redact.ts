/** What a secret is replaced with wherever text leaves the process (messages, logs, reports). */
export const REDACTED = '[REDACTED]';

/**
 * Replace every occurrence of each secret in `text`. Longer secrets go first so that a secret
 * containing another one is not left half-visible. Empty secrets are ignored: replacing the empty
 * string would mangle every character boundary and hide nothing.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const present = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  let result = text;
  for (const secret of present) {
    result = result.split(secret).join(REDACTED);
  }
  return result;
}
