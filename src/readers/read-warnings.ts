import type { ReadWarning, SourceItem } from '../core/types.js';
import type { Transcoder } from './decode.js';
import { countLineBreaks } from './line-breaks.js';

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
