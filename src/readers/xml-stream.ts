import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';

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
      yield;
    }
    parser.write(decoder.end());
    parser.close();
    yield;
  } finally {
    stream.destroy();
  }
}

/** Parses a whole part. */
export async function parseXml(stream: Readable, handlers: XmlHandlers): Promise<void> {
  for await (const _ of feedXml(stream, createXmlParser(handlers))) void _;
}

/** OOXML writes characters XML cannot hold as `_xHHHH_` (`_x000D_` for a carriage return). */
export const unescapeOoxml = (text: string): string =>
  text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
