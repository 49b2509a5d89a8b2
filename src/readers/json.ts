import { StringDecoder } from 'node:string_decoder';
import { ImportError } from '../core/errors/index.js';
import type { InputInfo, OpenedSource, SourceItem } from './types.js';
import { JsonArrayItems } from './json-array-items.js';
import { withLiveEncoding, type TextSource } from './text-source.js';
import { headerlessSource } from './headerless-source.js';

const describeStart = (char: string): string => {
  if (char === '{') return 'an object';
  if (char === '"') return 'a string';
  if (char === 't' || char === 'f') return 'a boolean';
  if (char === 'n') return 'null';
  if (char === '-' || (char >= '0' && char <= '9')) return 'a number';
  return `the character ${JSON.stringify(char)}, which does not start JSON`;
};

/** Reads until the first non-blank character, so a top level that is not an array fails at open. */
async function readStart(text: TextSource, decoder: StringDecoder): Promise<string> {
  let start = '';
  for (;;) {
    const next = await text.chunks.next();
    if (next.done) return start + decoder.end();
    start += decoder.write(next.value);
    if (start.trimStart().length > 0) return start;
  }
}

/**
 * Reads a JSON array of objects, element by element (row N is element N, 1-based). An element that
 * is not an object, too deep or too large is a `row_unparseable` problem; a syntax error ends the
 * read with an ImportError naming the element, as nothing after it can be trusted.
 */
export async function openJson(text: TextSource, file: string): Promise<OpenedSource> {
  const decoder = new StringDecoder('utf8');
  const start = await readStart(text, decoder).catch(async (error: unknown) => {
    await text.close();
    throw error;
  });
  const first = start.trimStart().charAt(0);
  if (first !== '[') {
    await text.close();
    const got = first === '' ? 'nothing (the file is empty)' : describeStart(first);
    throw new ImportError(
      'input_unreadable',
      `${file} holds ${got} at its top level; expected a JSON array of objects.`,
      {
        file,
        line: 1,
      },
    );
  }
  const info = withLiveEncoding(
    { path: file, format: 'json' as const, encoding: '', delimiter: null, rows: 0 },
    text,
  );
  return headerlessSource(info, jsonItems(start, decoder, text, info), text.close);
}

/** The array's items, from the text already read on to the end of the input; closes the input. */
async function* jsonItems(
  start: string,
  decoder: StringDecoder,
  text: TextSource,
  info: InputInfo,
): AsyncGenerator<SourceItem> {
  const elements = new JsonArrayItems(info.path, text);
  try {
    for (const item of elements.feed(start, false)) {
      info.rows++;
      yield item;
    }
    for (;;) {
      const next = await text.chunks.next();
      const chunk = next.done ? decoder.end() : decoder.write(next.value);
      for (const item of elements.feed(chunk, next.done === true)) {
        info.rows++;
        yield item;
      }
      if (next.done) break;
    }
  } finally {
    await text.close();
  }
}
