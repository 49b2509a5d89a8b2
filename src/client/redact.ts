/** What a secret is replaced with wherever text leaves the process (messages, logs, reports). */
export const REDACTED = '[REDACTED]';

/**
 * Secrets at least this long are replaced wherever they occur, even glued to other characters
 * (`%2F<key>`, `Bearer<key>`), and in the disguises a target may echo them in (percent-encoded,
 * base64 or base64url alone or inside `user:key` or `Bearer key`, hex): a random string that long
 * does not turn up inside ordinary words. A shorter secret ("net") is a piece of many words
 * ("network"), so it is replaced only where it stands alone as a token, with no letter or digit
 * right before or after it. A short key glued to letters therefore stays visible; keys that short
 * are weak anyway, and mangling every word that contains them would make messages unreadable.
 */
export const MIN_SECRET_REPLACED_ANYWHERE = 8;

/** A letter or digit of any script: what makes a short secret part of a longer word. */
const WORD_CHAR = '[\\p{L}\\p{N}]';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A hex digit in either case: `[aA]`, `7`. */
const hexDigit = (digit: string): string =>
  /[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit;

/** One byte percent-encoded, in either case, or encoded twice (`%2F`, `%2f`, `%252F`). */
const percentByte = (byte: number): string => {
  const hex = byte.toString(16).padStart(2, '0');
  return `%(?:25)?${hexDigit(hex[0]!)}${hexDigit(hex[1]!)}`;
};

/** Each character as itself or percent-encoded (its UTF-8 bytes): any mix an encoder produces. */
const literalOrPercentEncoded = (secret: string): string =>
  [...secret]
    .map((char) => {
      const bytes = [...Buffer.from(char, 'utf8')].map(percentByte).join('');
      return `(?:${escapeRegExp(char)}|${bytes})`;
    })
    .join('');

const BASE64_CHAR = '[A-Za-z0-9+/_-]';

/**
 * The base64 text of the secret at each of the three alignments it can have inside a longer
 * encoded string (`base64(secret)`, `base64("Bearer " + secret)`, `base64("user:" + secret)`): the
 * characters that depend on the secret's bytes alone. Standard and URL alphabets.
 */
const base64Cores = (secret: string): string[] => {
  const bytes = Buffer.from(secret, 'utf8');
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const firstWhole = Math.ceil((8 * offset) / 6);
    const endWhole = Math.floor((8 * (offset + bytes.length)) / 6);
    const core = encoded.slice(firstWhole, endWhole);
    cores.add(core);
    cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...cores];
};

/** Each base64 core with the one character on each side that mixes in a neighbour's bits. */
const base64Forms = (secret: string): string[] =>
  base64Cores(secret).map((core) => `${BASE64_CHAR}?${escapeRegExp(core)}${BASE64_CHAR}?`);

/** The secret's UTF-8 bytes in lower-case hex. */
const hexOf = (secret: string): string => Buffer.from(secret, 'utf8').toString('hex');

/** The secret's hex, either case. */
const hexForm = (secret: string): string => [...hexOf(secret)].map(hexDigit).join('');

/**
 * What a text must contain for the secret's pattern to match in it: the secret as it is, a
 * percent sign (a character of it encoded), a base64 core, or the hex form in any case. A text
 * without any of these is left as it is without running the pattern, which V8 compiles on its
 * first use (milliseconds for a long key's), so most texts a clean run redacts never compile it.
 */
const mayHoldOf = (secret: string): ((text: string) => boolean) => {
  if (secret.length < MIN_SECRET_REPLACED_ANYWHERE) return (text) => text.includes(secret);
  const cores = base64Cores(secret);
  const hex = hexOf(secret);
  return (text) =>
    text.includes(secret) ||
    text.includes('%') ||
    cores.some((core) => text.includes(core)) ||
    text.toLowerCase().includes(hex);
};

/** Every form of one secret as one pattern (see MIN_SECRET_REPLACED_ANYWHERE). */
export const patternOf = (secret: string): RegExp => {
  if (secret.length < MIN_SECRET_REPLACED_ANYWHERE) {
    return new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(secret)}(?!${WORD_CHAR})`, 'gu');
  }
  const forms = [literalOrPercentEncoded(secret), ...base64Forms(secret), hexForm(secret)];
  return new RegExp(forms.map((form) => `(?:${form})`).join('|'), 'gu');
};

/** A redactor: the text with every secret replaced, and an excerpt that cannot show part of one. */
export interface Redactor {
  (text: string): string;
  /**
   * The first `maxChars` characters of the redacted text, and no trailing piece of it that is the
   * start of a secret (MIN_SECRET_REPLACED_ANYWHERE characters or more): a cut, or a target that
   * cut its own echo, must not leave the first half of a key visible.
   */
  excerpt(text: string, maxChars: number): string;
}

/**
 * A redactor for `secrets`, compiled once. Longer secrets go first so that a secret containing
 * another one is not left half-visible. Empty secrets are ignored: replacing the empty string
 * would mangle every character boundary and hide nothing.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const kept = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
  // A pattern is made when a text may hold its secret: most redactors of a run never need one.
  const replacers = kept.map((secret) => {
    const mayHold = mayHoldOf(secret);
    let pattern: RegExp | undefined;
    return (text: string): string =>
      mayHold(text) ? text.replace((pattern ??= patternOf(secret)), REDACTED) : text;
  });
  const redactText = (text: string): string => replacers.reduce((result, replace) => replace(result), text);
  const long = kept.filter((secret) => secret.length >= MIN_SECRET_REPLACED_ANYWHERE);
  const excerpt = (text: string, maxChars: number): string => {
    const cut = redactText(text).slice(0, maxChars);
    for (const secret of long) {
      for (
        let length = Math.min(secret.length, cut.length);
        length >= MIN_SECRET_REPLACED_ANYWHERE;
        length -= 1
      ) {
        if (cut.endsWith(secret.slice(0, length))) return `${cut.slice(0, cut.length - length)}${REDACTED}`;
      }
    }
    return cut;
  };
  return Object.assign(redactText, { excerpt });
}

/** Replace every whole occurrence of each secret in `text` (see MIN_SECRET_REPLACED_ANYWHERE). */
export function redact(text: string, secrets: readonly string[]): string {
  return createRedactor(secrets)(text);
}
