import type { ReadWarning, SourceItem } from './types.js';
import type { Transcoder } from './decode.js';
import { countLineBreaks } from './line-breaks.js';
import { hasLoneSurrogate, LONE_SURROGATE_MARK, replaceLoneSurrogates } from './utf8.js';

/** A warning added to a row (a problem keeps its own code and is rejected anyway). */
export const warnRow = (item: SourceItem, warning: ReadWarning): void => {
  if (item.kind !== 'row') return;
  (item.warnings ??= []).push(warning);
};

/** The last line of a record that starts at `line` and reads `raw` (its line breaks kept). */
export const lastLineOf = (line: number, raw: string): number =>
  raw.includes('\n') || raw.includes('\r')
    ? line + countLineBreaks(Buffer.from(raw, 'utf8'), 0, Infinity)
    : line;

/**
 * Warns on a row one of whose lines [line, last] was read in another encoding than its file's
 * (line-transcoder.ts): the row reads right, but a user should look at its accents.
 */
export const warnOtherEncoding = (
  item: SourceItem,
  transcoder: Transcoder,
  what: string,
  last = item.kind === 'row' ? lastLineOf(item.line, item.raw) : item.line,
): SourceItem => {
  if (item.kind !== 'row' || transcoder.otherEncodingIn === undefined) return item;
  const other = transcoder.otherEncodingIn(item.line, last);
  if (other === undefined) return item;
  warnRow(item, {
    code: 'mixed_encoding',
    message: `${what} of ${item.file} (line ${item.line}) is not valid ${transcoder.encoding}, the encoding of the rest of the file; it was read as ${other}.`,
  });
  return item;
};

/** A JSON `\uD800`-`\uDFFF` escape: one half of a surrogate pair, maybe standing alone. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
const REPLACEMENT = '\uFFFD';

/** `text` with lone surrogates (and, when `marked`, the mark standing for them) replaced by U+FFFD. */
const replaced = (text: string, marked: boolean): string => {
  const fixed = hasLoneSurrogate(text) ? replaceLoneSurrogates(text, REPLACEMENT) : text;
  return marked ? fixed.replaceAll(LONE_SURROGATE_MARK, REPLACEMENT) : fixed;
};

const loneSurrogateWarning = (what: string, item: SourceItem, field: string): ReadWarning => ({
  code: 'lone_surrogate',
  field,
  message: `${what} of ${item.file} (line ${item.line}): the value of "${field}" holds half of a UTF-16 surrogate pair, which is no character; it was replaced by U+FFFD.`,
});

/**
 * Replaces, in a row's values, each half of a UTF-16 surrogate pair standing alone (a JSON
 * `"\ud800"`, or one a UTF-16 input decoded to) by U+FFFD, and warns naming each field it was
 * in. Written out as UTF-8 it would become U+FFFD anyway, unseen; the row is read, not rejected,
 * as a value with a character that cannot be kept keeps the rest of its text.
 */
export const repairLoneSurrogates = (item: SourceItem, transcoder: Transcoder, what: string): SourceItem => {
  if (item.kind !== 'row') return item;
  const marked = transcoder.loneSurrogateSeen === true && item.raw.includes(LONE_SURROGATE_MARK);
  if (!marked && !ESCAPED_SURROGATE.test(item.raw)) return item;
  const fields: string[] = [];
  const walk = (container: Record<string, unknown> | unknown[], path: string): void => {
    for (const [key, value] of Object.entries(container)) {
      const field = path === '' ? key : `${path}.${key}`;
      if (typeof value === 'string') {
        const fixed = replaced(value, marked);
        if (fixed === value) continue;
        (container as Record<string, unknown>)[key] = fixed;
        fields.push(field);
      } else if (typeof value === 'object' && value !== null) walk(value as Record<string, unknown>, field);
    }
  };
  walk(item.values, '');
  if (marked) item.raw = item.raw.replaceAll(LONE_SURROGATE_MARK, REPLACEMENT);
  for (const field of fields) warnRow(item, loneSurrogateWarning(what, item, field));
  return item;
};

/**
 * The same for a CSV record's cells, before they become a row (the normalize stage maps the
 * cells): only a UTF-16 input can hold lone surrogates there, as the mark.
 */
export const repairLoneSurrogateCells = (
  cells: readonly string[],
  names: readonly string[],
): { cells: string[]; fields: string[] } => {
  const fields: string[] = [];
  const fixed = cells.map((cell, index) => {
    if (!cell.includes(LONE_SURROGATE_MARK)) return cell;
    fields.push(names[index] ?? `column ${index + 1}`);
    return cell.replaceAll(LONE_SURROGATE_MARK, REPLACEMENT);
  });
  return { cells: fixed, fields };
};

export { loneSurrogateWarning };
