import { ImportError } from '../core/errors/index.js';
import type { OpenedSource, SourceItem, SourceProblem } from './types.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import { splitLines } from './lines.js';
import { MAX_JSON_DEPTH, MAX_RECORD_CHARS } from './limits.js';
import { repairLoneSurrogates, warnOtherEncoding } from './read-warnings.js';
import { withLiveEncoding, type TextSource } from './text-source.js';
import { describeJsonValue } from './json-kind.js';
import { headerlessSource } from './headerless-source.js';

/** True when `value` nests containers deeper than `limit` (the record itself is level 1). */
function tooDeep(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current as object);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** One non-blank line: its object, or the problem that keeps it from being a record. */
function parseLine(
  raw: string,
  file: string,
  fail: (code: SourceProblem['code'], message: string, raw: string) => SourceProblem,
  invalidSeen: boolean,
  encoding: string,
): SourceItem {
  if (invalidSeen && raw.includes(INVALID_MARK)) {
    return fail('invalid_encoding', `holds bytes that are not valid ${encoding}.`, showInvalid(raw));
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail('row_unparseable', `is not valid JSON: ${reason}.`, raw);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail('row_unparseable', `is ${describeJsonValue(value)}; expected a JSON object.`, raw);
  }
  if (tooDeep(value, MAX_JSON_DEPTH)) {
    return fail('row_unparseable', `is nested deeper than ${MAX_JSON_DEPTH} levels.`, raw);
  }
  return { kind: 'row', file, row: 0, line: 0, values: value as Record<string, unknown>, raw };
}

/**
 * Reads NDJSON / JSON Lines: one object per line. Blank lines are skipped and take no row number;
 * row N is the Nth non-blank line. A line that is not a JSON object (or too deep, too long, not
 * valid in the encoding) is a problem and reading goes on. An input without any line is an ImportError.
 */
export function openNdjson(text: TextSource, file: string): OpenedSource {
  const info = withLiveEncoding(
    { path: file, format: 'ndjson' as const, encoding: '', delimiter: null, rows: 0 },
    text,
  );
  const { transcoder } = text;

  async function* items(): AsyncGenerator<SourceItem> {
    let row = 0;
    let line = 0;
    const problem = (code: SourceProblem['code'], message: string, raw: string): SourceProblem => ({
      kind: 'problem',
      file,
      row,
      line,
      code,
      message: `Line ${row} of ${file} ${message}`,
      raw,
    });
    try {
      for await (const piece of splitLines(text.chunks, MAX_RECORD_CHARS)) {
        line++;
        let item: SourceItem;
        if (piece.tooLong) {
          row++;
          item = problem('row_unparseable', `is longer than ${MAX_RECORD_CHARS} bytes; it was not read.`, '');
        } else {
          let raw = piece.text.toString('utf8');
          if (raw.endsWith('\r')) raw = raw.slice(0, -1);
          if (raw.trim() === '') continue;
          row++;
          item = parseLine(raw, file, problem, transcoder.invalidSeen, text.encoding);
          if (item.kind === 'row') {
            item.row = row;
            item.line = line;
            repairLoneSurrogates(item, transcoder, `Line ${row}`);
            warnOtherEncoding(item, transcoder, `Line ${row}`, line);
          }
        }
        info.rows++;
        yield item;
      }
      if (row === 0) {
        throw new ImportError(
          'input_unreadable',
          `${file} holds no JSON lines; expected one JSON object per line.`,
          { file, line: 1 },
        );
      }
    } finally {
      await text.close();
    }
  }

  return headerlessSource(info, items(), text.close);
}
