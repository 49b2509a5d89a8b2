import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** Random bytes drawn 4 KB at a time (as randomUUID does): a call per id would cost more than the id. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
const random10 = (into: Buffer): void => {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  pool.copy(into, 6, poolAt, poolAt + 10);
  poolAt += 10;
};

/**
 * A version 7 UUID (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter within the same
 * millisecond (monotonic in this process), 62 random bits. Contacts get these instead of v4 ids
 * because every list table is keyed by contact id: with random ids a bulk create of 100 dirtied a
 * few hundred B-tree pages scattered over each index (and wrote them all to the WAL); time-ordered
 * ids append at the end of those indexes.
 */
export const timeOrderedId = (): string => {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // 4,096 ids in one millisecond: borrow the next one (still unique and ordered).
    lastMs += 1;
    sequence = 0;
  }
  const bytes = Buffer.allocUnsafe(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  random10(bytes);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
