import { StringDecoder } from 'node:string_decoder';
import { ImportError } from '../core/errors/index.js';
import type { OpenedSource, SourceItem } from '../core/types.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import { ElementAssembler } from './json-assembler.js';
import { JsonElementLines } from './json-lines.js';
import { createJsonTokenizer, type Token } from './json-tokens.js';
import type { TextSource } from './text-source.js';
import { describeJsonValue } from './json-kind.js';
import { headerlessSource } from './headerless-source.js';

/** Characters given to the tokenizer per call. */
const TOKENIZE_SLICE = 4096;

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
  const info = { path: file, format: 'json' as const, encoding: text.encoding, delimiter: null, rows: 0 };
  const { transcoder } = text;

  async function* items(): AsyncGenerator<SourceItem> {
    const tokenizer = createJsonTokenizer();
    const assembler = new ElementAssembler();
    let level: 'before' | 'inside' | 'after' = 'before';
    const lines = new JsonElementLines();
    let row = 0;
    let line = 0;
    let elementOpen = false;

    const toItem = (element: ReturnType<ElementAssembler['push']> & object): SourceItem => {
      if (!element.ok) {
        return {
          kind: 'problem',
          file,
          row,
          line,
          code: 'row_unparseable',
          message: `Element ${row} of ${file} was not read: ${element.reason}.`,
          raw: '',
        };
      }
      const { value } = element;
      const raw = JSON.stringify(value);
      if (transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
        return {
          kind: 'problem',
          file,
          row,
          line,
          code: 'invalid_encoding',
          message: `Element ${row} of ${file} holds bytes that are not valid ${text.encoding}.`,
          raw: showInvalid(raw),
        };
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return {
          kind: 'problem',
          file,
          row,
          line,
          code: 'row_unparseable',
          message: `Element ${row} of ${file} is ${describeJsonValue(value)}; expected an object.`,
          raw,
        };
      }
      return { kind: 'row', file, row, line, values: value as Record<string, unknown>, raw };
    };

    function* consume(tokens: Token[]): Generator<SourceItem> {
      for (const token of tokens) {
        if (level === 'before') {
          level = 'inside';
          continue;
        }
        if (level === 'after') continue;
        if (!elementOpen) {
          if (token.name === 'endArray') {
            level = 'after';
            continue;
          }
          elementOpen = true;
          row++;
          line = lines.next();
        }
        const element = assembler.push(token);
        if (element) {
          elementOpen = false;
          yield toItem(element);
        }
      }
    }

    // The tokenizer throws away the tokens of a write that fails, so text goes in small slices:
    // an error then names the element it is in, or one shortly before it.
    const fail = (error: unknown): ImportError => {
      if (error instanceof ImportError) return error;
      const reason = error instanceof Error ? error.message : String(error);
      const near = Math.max(row, 1);
      const where = level === 'after' ? 'after its array' : `at or shortly after element ${near}`;
      return new ImportError(
        'input_unreadable',
        `${file} is not valid JSON ${where}: ${reason}.`,
        { file, row: near },
        { cause: error },
      );
    };

    function* feed(chunk: string, last: boolean): Generator<SourceItem> {
      for (let start = 0; start < chunk.length || (last && start === 0); start += TOKENIZE_SLICE) {
        let tokens: Token[];
        try {
          const slice = chunk.slice(start, start + TOKENIZE_SLICE);
          lines.scan(slice);
          tokens = chunk.length > 0 ? tokenizer.write(slice) : [];
          if (last && start + TOKENIZE_SLICE >= chunk.length) tokens = tokens.concat(tokenizer.flush());
        } catch (error) {
          throw fail(error);
        }
        yield* consume(tokens);
      }
    }

    try {
      for (const item of feed(start, false)) {
        info.rows++;
        yield item;
      }
      for (;;) {
        const next = await text.chunks.next();
        const chunk = next.done ? decoder.end() : decoder.write(next.value);
        for (const item of feed(chunk, next.done === true)) {
          info.rows++;
          yield item;
        }
        if (next.done) break;
      }
    } finally {
      await text.close();
    }
  }

  return headerlessSource(info, items(), text.close);
}
