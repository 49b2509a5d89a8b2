/** The pairs blocking proposes, as they are found (PairList), and at the end as two lists. */

const CHUNK_BITS = 14;
/** Pairs per chunk of a PairList. */
const CHUNK = 1 << CHUNK_BITS;

/**
 * A growable list of pairs of people kept in chunks: growing adds a chunk and copies nothing, so
 * a list of millions never stands twice in memory.
 */
export class PairList {
  private readonly chunks: Int32Array[] = [];
  length = 0;

  push(a: number, b: number): void {
    const offset = this.length & (CHUNK - 1);
    if (offset === 0) this.chunks.push(new Int32Array(2 * CHUNK));
    const chunk = this.chunks[this.length >>> CHUNK_BITS]!;
    chunk[2 * offset] = a;
    chunk[2 * offset + 1] = b;
    this.length++;
  }

  a(k: number): number {
    return this.chunks[k >>> CHUNK_BITS]![2 * (k & (CHUNK - 1))]!;
  }

  b(k: number): number {
    return this.chunks[k >>> CHUNK_BITS]![2 * (k & (CHUNK - 1)) + 1]!;
  }
}

/** The pairs as two lists. */
export const splitPairs = (pairs: PairList): { a: Int32Array; b: Int32Array; count: number } => {
  const left = new Int32Array(pairs.length);
  const right = new Int32Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    left[k] = pairs.a(k);
    right[k] = pairs.b(k);
  }
  return { a: left, b: right, count: pairs.length };
};
