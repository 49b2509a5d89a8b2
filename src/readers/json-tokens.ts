import { getManyValues, isMany, none } from 'stream-chain/core';
import { jsonParser, type Token } from 'stream-json/core/parser.js';

export type { Token };

/** Feeds text to stream-json's tokenizer; `flush` ends the input. Keys, strings and numbers arrive in chunks. */
export interface JsonTokenizer {
  write(text: string): Token[];
  flush(): Token[];
}

/** A stage answers `many(tokens)` or `none` (stream-chain's protocol for zero or several values). */
const tokensOf = (result: unknown): Token[] => (isMany(result) ? (getManyValues(result) as Token[]) : []);

/**
 * stream-json's documented raw tokenizer (`jsonParser`: no UTF-8 front, the decoder gives it whole
 * characters), driven as stream-chain documents a flushable stage: called with text, then with
 * `none` to end the input.
 */
export function createJsonTokenizer(): JsonTokenizer {
  // Unpacked tokens: no key, string or number is ever held whole by the tokenizer itself.
  const feed = jsonParser({ packValues: false, streamValues: true });
  return {
    write: (text) => tokensOf(feed(text)),
    // The stage type names only its input; the end of input is `none`, as the protocol says.
    flush: () => tokensOf(feed(none as never)),
  };
}
