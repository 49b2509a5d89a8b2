import { jsonParser, type Token } from 'stream-json/core/parser.js';

export type { Token };

// stream-chain's markers are registered symbols, so they can be named without importing it.
const NONE = Symbol.for('object-stream.none');
const MANY = Symbol.for('object-stream.many');

/** Feeds text to stream-json's tokenizer; `flush` ends the input. Keys, strings and numbers arrive in chunks. */
export interface JsonTokenizer {
  write(text: string): Token[];
  flush(): Token[];
}

const tokensOf = (result: unknown): Token[] => {
  if (typeof result === 'object' && result !== null && (result as Record<symbol, unknown>)[MANY] === 1) {
    return (result as { values: Token[] }).values;
  }
  return [];
};

export function createJsonTokenizer(): JsonTokenizer {
  // Unpacked tokens: no key, string or number is ever held whole by the tokenizer itself.
  const feed = jsonParser({ packValues: false, streamValues: true }) as unknown as (
    input: string | symbol,
  ) => unknown;
  return {
    write: (text) => tokensOf(feed(text)),
    flush: () => tokensOf(feed(NONE)),
  };
}
