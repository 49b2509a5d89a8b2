import { bulkUpdateElementJson, createContactsBody } from '../client/bodies.js';
import type { Planned } from './resolve.js';

/**
 * docs/design.md "Request size": a request carries at most `--chunk-size` records and at most
 * `--max-body-bytes` bytes of body. The body of each kind is joined from the records' own JSON
 * texts (the ones their hashes are over), so its size is known exactly before it is sent.
 */
export interface ChunkLimits {
  count: number;
  bytes: number;
}

/** `{"contacts":[` and `]}`: what a create body adds around its records (and a comma between two). */
const CREATE_ENVELOPE = '{"contacts":[]}'.length;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** What one record adds to a create body: its write's text (made once, write-object.ts). */
export const createBytes = (planned: Planned): number => bytes(planned.json) + 1;

/** A record's E1 element: its contact id around its write's text, as the body carries it. */
export const updateElement = (planned: Planned): string =>
  bulkUpdateElementJson(planned.contactId!, planned.json);

/** What one record adds to an E1 body. */
export const updateBytes = (planned: Planned): number => bytes(updateElement(planned)) + 1;

/** The body a create of `items` sends: their texts joined (exactly JSON.stringify({ contacts })). */
export const createBody = (items: readonly Planned[]): string => createContactsBody(items.map((p) => p.json));

/**
 * Splits `items` in order into chunks of at most `limits.count` records and `limits.bytes` bytes
 * of body; a record that fits no request (`oversize`) is left out of every chunk.
 */
export const chunkBy = (
  items: readonly Planned[],
  limits: ChunkLimits,
  sizeOf: (planned: Planned) => number,
): { chunks: Planned[][]; oversize: Planned[] } => {
  const chunks: Planned[][] = [];
  const oversize: Planned[] = [];
  // What the records of one body may add up to (as `createBytes` / `updateBytes` measure them).
  const budget = limits.bytes - CREATE_ENVELOPE - 2;
  let chunk: Planned[] = [];
  let size = 0;
  for (const planned of items) {
    const itemSize = sizeOf(planned);
    if (itemSize > budget) {
      oversize.push(planned);
      continue;
    }
    if (chunk.length > 0 && (chunk.length >= limits.count || size + itemSize > budget)) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(planned);
    size += itemSize;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return { chunks, oversize };
};
