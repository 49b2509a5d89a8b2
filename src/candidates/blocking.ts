/**
 * Blocking: which pairs are compared at all. Each person gets a few keys (phonetic last name and
 * a first initial, the same with the names the other way round, e-mail local part, phone,
 * birth date, a name's sound with the birth year, postcode and street number); people sharing a key form a block and are compared
 * pair by pair. Cost grows with the sum of the blocks' squares, so a block larger than
 * `maxBlock` (a common name, a switchboard number) is not compared whole: its people, in order
 * of name and e-mail, are compared with their `window` nearest neighbours only, and the block is
 * counted. So no person is compared with more than a few dozen others, however many there are.
 *
 * A pair sharing several keys is compared once: in the first block (by key number) both are in
 * that was compared whole.
 */
import type { FlatPeople } from './flat-people.js';
import { keyHashesInto, mostKeysOf } from './blocking-keys.js';
import { partnersByPerson } from './blocking-partners.js';
import { PairList, splitPairs } from './pair-list.js';
import { orderRanks } from './window-order.js';

export interface BlockingOptions {
  maxBlock: number;
  window: number;
}

export { keyHashesOf, keysOf } from './blocking-keys.js';

export const DEFAULT_BLOCKING: BlockingOptions = { maxBlock: 30, window: 4 };

export interface BlockedPairs {
  /** Pair k is (a[k], b[k]), a < b. */
  a: Int32Array;
  b: Int32Array;
  count: number;
  blocksSkipped: number;
}

/**
 * Blocks of two people or more as lists: each block's members, flat (CSR), in order of person; a
 * block compared in part is put in window order once the blocks are known (inWindowOrder).
 */
interface BlockLists {
  blockStart: Int32Array;
  members: Int32Array;
  blockCount: number;
}

/**
 * Each person's keys as numbers (hash, then person) in one array sorted natively: no table of
 * key strings, which at a few hundred thousand people would be the largest thing held.
 */
const blockLists = (people: FlatPeople): BlockLists => {
  let shift = 1;
  while (shift <= people.size) shift *= 2;
  // A hash and a person number fitted a double's 53 bits together: hashes are taken in that range.
  const hashRange = Math.min(2 ** 32, 2 ** 53 / shift);
  // A hash is below 2 ** 32 already: no division by a double for every key.
  const wholeHash = hashRange === 2 ** 32;
  // Room for every key, counted first: the lists are made once, at their final size.
  let room = 0;
  for (let person = 0; person < people.size; person++) room += mostKeysOf(people, person);
  const hashes = new Uint32Array(room);
  const persons = new Int32Array(room);
  let length = 0;
  // Two keys of one hash share a block: a few more pairs compared.
  for (let person = 0; person < people.size; person++) {
    const end = length + keyHashesInto(people, person, hashes, length);
    for (; length < end; length++) {
      if (!wholeHash) hashes[length] = hashes[length]! % hashRange;
      persons[length] = person;
    }
  }
  // In order of hash, then person (as added): sorted by the hash's digits, stably.
  const sorted = byHash(hashes.subarray(0, length), persons.subarray(0, length));
  const sortedHashes = sorted.hashes;
  const sortedPersons = sorted.persons;
  // Two passes over the runs of one hash, the first to count: every list is made at its final
  // size. A block of one person gives no pair and is left out; two keys of one person with one
  // hash sit side by side, and count once.
  const runEnd = (from: number): number => {
    let to = from + 1;
    while (to < length && sortedHashes[to] === sortedHashes[from]) to++;
    return to;
  };
  const peopleIn = (from: number, to: number): number => {
    let count = 1;
    for (let k = from + 1; k < to; k++) if (sortedPersons[k] !== sortedPersons[k - 1]) count++;
    return count;
  };
  let kept = 0;
  let blockCount = 0;
  for (let from = 0, to = 0; from < length; from = to) {
    to = runEnd(from);
    const size = peopleIn(from, to);
    if (size < 2) continue;
    kept += size;
    blockCount++;
  }
  const members = new Int32Array(kept);
  const blockStart = new Int32Array(blockCount + 1);
  kept = 0;
  blockCount = 0;
  for (let from = 0, to = 0; from < length; from = to) {
    to = runEnd(from);
    if (peopleIn(from, to) < 2) continue;
    members[kept++] = sortedPersons[from]!;
    for (let k = from + 1; k < to; k++)
      if (sortedPersons[k] !== sortedPersons[k - 1]) members[kept++] = sortedPersons[k]!;
    blockStart[++blockCount] = kept;
  }
  return { blockStart, members, blockCount };
};

/**
 * Each person's blocks (ascending) and the person's place in each (an index into `members`),
 * flat per person (CSR).
 */
interface PersonBlocks {
  personStart: Int32Array;
  blocksOfPerson: Int32Array;
  placesOfPerson: Int32Array;
}

const personBlocks = ({ blockStart, members, blockCount }: BlockLists, people: number): PersonBlocks => {
  const personStart = new Int32Array(people + 1);
  for (let k = 0; k < members.length; k++) personStart[members[k]! + 1]!++;
  for (let i = 0; i < people; i++) personStart[i + 1]! += personStart[i]!;
  // In order of block number, so each person's blocks come out ascending.
  const blocksOfPerson = new Int32Array(members.length);
  const placesOfPerson = new Int32Array(members.length);
  const fill = personStart.slice(0, people);
  for (let id = 0; id < blockCount; id++)
    for (let k = blockStart[id]!; k < blockStart[id + 1]!; k++) {
      const at = fill[members[k]!]!++;
      blocksOfPerson[at] = id;
      placesOfPerson[at] = k;
    }
  return { personStart, blocksOfPerson, placesOfPerson };
};

const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/** The entries sorted by hash, stably (a radix sort by the hash's two 16-bit halves). */
const byHash = (hashes: Uint32Array, persons: Int32Array): { hashes: Uint32Array; persons: Int32Array } => {
  let fromHashes = hashes;
  let fromPersons = persons;
  let toHashes: Uint32Array = new Uint32Array(hashes.length);
  let toPersons: Int32Array = new Int32Array(hashes.length);
  const start = new Int32Array(DIGITS + 1);
  for (let bits = 0; bits < 32; bits += DIGIT_BITS) {
    start.fill(0);
    for (let k = 0; k < fromHashes.length; k++) start[((fromHashes[k]! >>> bits) & (DIGITS - 1)) + 1]!++;
    for (let d = 0; d < DIGITS; d++) start[d + 1]! += start[d]!;
    for (let k = 0; k < fromHashes.length; k++) {
      const at = start[(fromHashes[k]! >>> bits) & (DIGITS - 1)]!++;
      toHashes[at] = fromHashes[k]!;
      toPersons[at] = fromPersons[k]!;
    }
    [fromHashes, toHashes] = [toHashes, fromHashes];
    [fromPersons, toPersons] = [toPersons, fromPersons];
  }
  return { hashes: fromHashes, persons: fromPersons };
};

/**
 * Whether i and j share a block numbered below `id` that was compared whole: looked for among
 * each person's blocks that were compared whole and hold another person (ascending), the only
 * ones that can have compared a pair already.
 */
const earlierWholeBlock = (
  { blockStart }: BlockLists,
  { personStart, blocksOfPerson }: PersonBlocks,
  whole: Uint8Array,
): ((i: number, j: number, id: number) => boolean) => {
  const people = personStart.length - 1;
  const shared = (id: number): boolean => whole[id] === 1 && blockStart[id + 1]! - blockStart[id]! >= 2;
  const wholeStart = new Int32Array(people + 1);
  for (let i = 0; i < people; i++) {
    let count = 0;
    for (let k = personStart[i]!; k < personStart[i + 1]!; k++) if (shared(blocksOfPerson[k]!)) count++;
    wholeStart[i + 1] = wholeStart[i]! + count;
  }
  const wholeOfPerson = new Int32Array(wholeStart[people]!);
  for (let i = 0, at = 0; i < people; i++)
    for (let k = personStart[i]!; k < personStart[i + 1]!; k++)
      if (shared(blocksOfPerson[k]!)) wholeOfPerson[at++] = blocksOfPerson[k]!;

  return (i, j, id) => {
    let x = wholeStart[i]!;
    let y = wholeStart[j]!;
    const xEnd = wholeStart[i + 1]!;
    const yEnd = wholeStart[j + 1]!;
    while (x < xEnd && y < yEnd) {
      const bx = wholeOfPerson[x]!;
      const by = wholeOfPerson[y]!;
      if (bx >= id || by >= id) return false;
      if (bx === by) return true;
      if (bx < by) x++;
      else y++;
    }
    return false;
  };
};

export const blockPairs = (people: FlatPeople, options: BlockingOptions = DEFAULT_BLOCKING): BlockedPairs => {
  const lists = blockLists(people);
  const { blockStart, blockCount } = lists;
  const whole = new Uint8Array(blockCount);
  for (let id = 0; id < blockCount; id++)
    whole[id] = blockStart[id + 1]! - blockStart[id]! <= options.maxBlock ? 1 : 0;
  const blocksSkipped = inWindowOrder(people, lists, whole);
  const byPerson = personBlocks(lists, people.size);
  const comparedBefore = earlierWholeBlock(lists, byPerson, whole);
  // Where a window holds a pair not compared in a whole block before, pairs may meet twice and
  // are given once each in order of a then b: that is every pair of a whole block and of a
  // window, gathered person by person. Otherwise only the whole blocks give pairs, in their order.
  return {
    ...(windowsAddPairs(lists, whole, options.window, comparedBefore)
      ? partnersByPerson(lists, byPerson, whole, options.window)
      : wholeBlockPairs(lists, whole, comparedBefore)),
    blocksSkipped,
  };
};

/**
 * Puts the people of each block compared in part in order of name and e-mail, in place; returns
 * how many such blocks there are.
 */
const inWindowOrder = (
  people: FlatPeople,
  { blockStart, members }: BlockLists,
  whole: Uint8Array,
): number => {
  const { rankOf, personAt } = orderRanks(people, blockStart, members, whole);
  let skipped = 0;
  for (let id = 0; id < whole.length; id++) {
    const start = blockStart[id]!;
    const end = blockStart[id + 1]!;
    if (whole[id] || end - start < 2) continue;
    skipped++;
    // By their places in that order, sorted as numbers.
    for (let k = start; k < end; k++) members[k] = rankOf[members[k]!]!;
    members.subarray(start, end).sort();
    for (let k = start; k < end; k++) members[k] = personAt[members[k]!]!;
  }
  return skipped;
};

/** Whether some pair of neighbours in a block compared in part shares no earlier whole block. */
const windowsAddPairs = (
  { blockStart, members }: BlockLists,
  whole: Uint8Array,
  window: number,
  comparedBefore: (i: number, j: number, id: number) => boolean,
): boolean => {
  for (let id = 0; id < whole.length; id++) {
    if (whole[id]) continue;
    const end = blockStart[id + 1]!;
    for (let x = blockStart[id]!; x < end; x++)
      for (let y = x + 1; y < Math.min(end, x + 1 + window); y++) {
        const i = members[x]!;
        const j = members[y]!;
        if (!comparedBefore(Math.min(i, j), Math.max(i, j), id)) return true;
      }
  }
  return false;
};

/** The pairs of the whole blocks, in order of block, each in the first whole block holding it. */
const wholeBlockPairs = (
  { blockStart, members }: BlockLists,
  whole: Uint8Array,
  comparedBefore: (i: number, j: number, id: number) => boolean,
): { a: Int32Array; b: Int32Array; count: number } => {
  const found = new PairList();
  for (let id = 0; id < whole.length; id++) {
    if (!whole[id]) continue;
    const end = blockStart[id + 1]!;
    // Members are in order of person: a < b.
    for (let x = blockStart[id]!; x < end; x++)
      for (let y = x + 1; y < end; y++) {
        const a = members[x]!;
        const b = members[y]!;
        if (!comparedBefore(a, b, id)) found.push(a, b);
      }
  }
  return splitPairs(found);
};
