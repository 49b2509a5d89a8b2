import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_PENDING_CHARS } from './limits.js';

export type XmlTag = SaxesTagPlain;

/** A tag's or attribute's name without its namespace prefix (`x:row` -> `row`): writers differ. */
export const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

/** An attribute by its local name, whatever prefix the writer gave it (`r:id`, `id`). */
export const attribute = (tag: XmlTag, name: string): string | undefined => {
  const direct = tag.attributes[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(tag.attributes)) {
    if (localName(key) === name) return value;
  }
  return undefined;
};

export interface XmlHandlers {
  open?(tag: XmlTag, name: string): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** A non-namespace-aware parser (prefixes vary between writers) calling `handlers` with local names. */
type PlainParser = SaxesParser<{ xmlns: false; position: false }>;

export function createXmlParser(handlers: XmlHandlers): PlainParser {
  const parser: PlainParser = new SaxesParser({ xmlns: false, position: false });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => open(tag, localName(tag.name)));
  }
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }
  return parser;
}

/**
 * Feeds a part's XML to `parser` chunk by chunk, yielding after each so the caller can take what
 * was parsed (and stop early: returning from the loop destroys the stream).
 */
export async function* feedXml(stream: Readable, parser: PlainParser): AsyncGenerator<void> {
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(decoder.write(chunk));
      assertHeldBounded(parser);
      yield;
    }
    parser.write(decoder.end());
    parser.close();
    yield;
  } finally {
    stream.destroy();
  }
}

/** The parser's state between events (saxes keeps it in fields it does not declare public). */
interface HeldState {
  text: string;
  name: string;
  piTarget: string;
  entity: string;
  tags: unknown[];
  attribList: unknown[];
}

/**
 * Throws once the parser holds more than the bounds of limits.ts: it keeps text until the next
 * `<`, a name or attribute value until its end, every open element until it closes, so a part
 * that never ends one grows it with every chunk. Checked after each chunk (tens of KB at most).
 */
const assertHeldBounded = (parser: PlainParser): void => {
  const held = parser as unknown as HeldState;
  const chars = Math.max(held.text.length, held.name.length, held.piTarget.length, held.entity.length);
  if (chars > MAX_XML_PENDING_CHARS)
    throw new Error(
      `it holds more than ${MAX_XML_PENDING_CHARS} characters that never end (text, a name or a value)`,
    );
  if (held.tags.length > MAX_XML_DEPTH) throw new Error(`its elements nest more than ${MAX_XML_DEPTH} deep`);
  if (held.attribList.length > MAX_XML_ATTRIBUTES)
    throw new Error(`a tag has more than ${MAX_XML_ATTRIBUTES} attributes`);
};

/** Parses a whole part. */
export async function parseXml(stream: Readable, handlers: XmlHandlers): Promise<void> {
  for await (const _ of feedXml(stream, createXmlParser(handlers))) void _;
}

/** OOXML writes characters XML cannot hold as `_xHHHH_` (`_x000D_` for a carriage return). */
export const unescapeOoxml = (text: string): string =>
  text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
