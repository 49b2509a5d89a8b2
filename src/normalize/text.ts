const INNER_WHITESPACE = /\s+/gu;
/** Printable ASCII words joined by single spaces: already NFC, trimmed and collapsed. */
const CLEAN_ASCII = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/**
 * Unicode NFC, trimmed, inner whitespace collapsed to one space; an empty result is an absent
 * value. Finite numbers and booleans become their text (a JSON source may hold `42` in a text
 * column); null, objects and arrays are not text and give undefined.
 */
export function normalizeText(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else return undefined;
  // Most cells are plain ASCII: skip the three passes when they would change nothing (hot path).
  if (CLEAN_ASCII.test(text)) return text;
  const normalized = text.normalize('NFC').trim().replace(INNER_WHITESPACE, ' ');
  return normalized === '' ? undefined : normalized;
}
