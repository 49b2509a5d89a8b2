/**
 * The pairs blocking proposes, as they are found (PairList), and at the end as two lists in order
 * of a then b, once each.
 */

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

/** Above this many, one person's partners are sorted natively rather than by insertion. */
const INSERTION_SORTED = 32;

/**
 * The pairs once each, in order of a then b, as two lists: counted per a, placed,
 * and each a's few partners sorted (no sort of every pair at once).
 */
export const sortedUnique = (
  pairs: PairList,
  people: number,
): { a: Int32Array; b: Int32Array; count: number } => {
  const start = new Int32Array(people + 1);
  for (let k = 0; k < pairs.length; k++) start[pairs.a(k) + 1]!++;
  for (let i = 0; i < people; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, people);
  const right = new Int32Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) right[fill[pairs.a(k)]!++] = pairs.b(k);
  const left = new Int32Array(pairs.length);
  let count = 0;
  for (let a = 0; a < people; a++) {
    const from = start[a]!;
    const to = start[a + 1]!;
    if (to - from > INSERTION_SORTED) right.subarray(from, to).sort();
    else
      for (let k = from + 1; k < to; k++) {
        const b = right[k]!;
        let at = k;
        for (; at > from && right[at - 1]! > b; at--) right[at] = right[at - 1]!;
        right[at] = b;
      }
    // Written over the pairs already read: `count` never passes `k`.
    let last = -1;
    for (let k = from; k < to; k++) {
      const b = right[k]!;
      if (b === last) continue;
      last = b;
      left[count] = a;
      right[count++] = b;
    }
  }
  return { a: left.subarray(0, count), b: right.subarray(0, count), count };
};

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
