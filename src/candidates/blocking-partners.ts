/**
 * Every pair of a block compared whole and of a window of a block compared in part, once each,
 * in order of a then b: gathered person by person (each person's partners after it, marked as
 * seen so a pair two blocks share is kept once), and each person's few partners put in order.
 * Nothing is written twice or sorted across people.
 */

/** Above this many, one person's partners are sorted natively rather than by insertion. */
const INSERTION_SORTED = 32;

export interface BlockMembers {
  blockStart: Int32Array;
  /** Members of a block compared whole in order of person; of the others, in window order. */
  members: Int32Array;
}

export interface MembersOfPerson {
  personStart: Int32Array;
  blocksOfPerson: Int32Array;
  /** The person's place in each of its blocks (an index into `members`). */
  placesOfPerson: Int32Array;
}

export const partnersByPerson = (
  { blockStart, members }: BlockMembers,
  { personStart, blocksOfPerson, placesOfPerson }: MembersOfPerson,
  whole: Uint8Array,
  window: number,
): { a: Int32Array; b: Int32Array; count: number } => {
  const people = personStart.length - 1;
  let most = 0;
  for (let id = 0; id < whole.length; id++) {
    const size = blockStart[id + 1]! - blockStart[id]!;
    most += whole[id] ? (size * (size - 1)) / 2 : size * window;
  }
  const left = new Int32Array(most);
  const right = new Int32Array(most);
  /** The person whose partners last met each person: each partner is kept once per person. */
  const seenBy = new Int32Array(people).fill(-1);
  let count = 0;
  for (let a = 0; a < people; a++) {
    const from = count;
    for (let e = personStart[a]!; e < personStart[a + 1]!; e++) {
      const id = blocksOfPerson[e]!;
      const place = placesOfPerson[e]!;
      const start = blockStart[id]!;
      const end = blockStart[id + 1]!;
      // A whole block's members after a are its partners; a window's are its neighbours either side.
      const first = whole[id] ? place + 1 : Math.max(start, place - window);
      const last = whole[id] ? end : Math.min(end, place + window + 1);
      for (let k = first; k < last; k++) {
        const b = members[k]!;
        if (b <= a || seenBy[b] === a) continue;
        seenBy[b] = a;
        right[count++] = b;
      }
    }
    if (count - from > INSERTION_SORTED) right.subarray(from, count).sort();
    else
      for (let k = from + 1; k < count; k++) {
        const b = right[k]!;
        let at = k;
        for (; at > from && right[at - 1]! > b; at--) right[at] = right[at - 1]!;
        right[at] = b;
      }
    for (let k = from; k < count; k++) left[k] = a;
  }
  return { a: left.subarray(0, count), b: right.subarray(0, count), count };
};
