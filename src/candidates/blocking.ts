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
import type { Prepared } from './prepare.js';
import { hashCharOn, HASH_START, hashNumberOn, hashOn } from './text.js';

export interface BlockingOptions {
  maxBlock: number;
  window: number;
}

export const DEFAULT_BLOCKING: BlockingOptions = { maxBlock: 30, window: 4 };

export interface BlockedPairs {
  /** Pair k is (a[k], b[k]), a < b. */
  a: Int32Array;
  b: Int32Array;
  count: number;
  blocksSkipped: number;
}

const initialOf = (name: string): string => name[0] ?? '';

/** The blocking keys of one person; `lookup` numbers a key (the same number for the same key). */
export const keysOf = (p: Prepared): string[] => {
  const keys: string[] = [];
  const lastCode = p.lastCodes[0];
  const firstCode = p.firstCodes[0];
  if (lastCode && p.first !== '') {
    for (const root of p.firstRoots) keys.push(`n:${lastCode}|${initialOf(root)}`);
  }
  if (firstCode && p.last !== '') keys.push(`n:${firstCode}|${initialOf(p.last)}`);
  for (const local of p.locals) if (local.length >= 3 && !/^\d+$/u.test(local)) keys.push(`e:${local}`);
  for (const phone of p.phones) keys.push(`p:${phone}`);
  const year = p.birth?.year;
  if (year !== undefined) {
    keys.push(`b:${year}-${p.birth!.month}-${p.birth!.day}`);
    // A typo in one name and a wrong day: the other name's sound and the year still agree.
    if (lastCode) keys.push(`y:${lastCode}|${year}`);
    if (firstCode) keys.push(`y:${firstCode}|${year}`);
  }
  const number = p.street.split(' ')[0];
  if (p.postcode !== '' && number) keys.push(`a:${p.postcode}|${number}`);
  return [...new Set(keys)];
};

const PIPE = 0x7c;
const DASH = 0x2d;
const prefix = (tag: string): number => hashOn(HASH_START, tag);
const NAME = prefix('n:');
const EMAIL = prefix('e:');
const PHONE = prefix('p:');
const BIRTH = prefix('b:');
const YEAR = prefix('y:');
const ADDRESS = prefix('a:');
const ONLY_DIGITS = /^\d+$/u;

/**
 * `hashOf` of each of keysOf(p), worked out from the parts without writing a key out (a key may
 * come twice: the blocks take a person once per hash).
 */
export const keyHashesOf = (p: Prepared, visit: (hash: number) => void): void => {
  const lastCode = p.lastCodes[0];
  const firstCode = p.firstCodes[0];
  if (lastCode && p.first !== '') {
    const name = hashCharOn(hashOn(NAME, lastCode), PIPE);
    for (const root of p.firstRoots) visit(hashOn(name, root, 0, Math.min(1, root.length)) >>> 0);
  }
  if (firstCode && p.last !== '')
    visit(hashOn(hashCharOn(hashOn(NAME, firstCode), PIPE), p.last, 0, Math.min(1, p.last.length)) >>> 0);
  for (const local of p.locals)
    if (local.length >= 3 && !ONLY_DIGITS.test(local)) visit(hashOn(EMAIL, local) >>> 0);
  for (const phone of p.phones) visit(hashOn(PHONE, phone) >>> 0);
  const birth = p.birth;
  if (birth?.year !== undefined) {
    const year = birth.year;
    visit(
      hashNumberOn(
        hashCharOn(hashNumberOn(hashCharOn(hashNumberOn(BIRTH, year), DASH), birth.month), DASH),
        birth.day,
      ) >>> 0,
    );
    if (lastCode) visit(hashNumberOn(hashCharOn(hashOn(YEAR, lastCode), PIPE), year) >>> 0);
    if (firstCode) visit(hashNumberOn(hashCharOn(hashOn(YEAR, firstCode), PIPE), year) >>> 0);
  }
  const space = p.street.indexOf(' ');
  const numberEnd = space < 0 ? p.street.length : space;
  if (p.postcode !== '' && numberEnd > 0)
    visit(hashOn(hashCharOn(hashOn(ADDRESS, p.postcode), PIPE), p.street, 0, numberEnd) >>> 0);
};

const CHUNK_BITS = 14;
/** Pairs per chunk of a PairList. */
const CHUNK = 1 << CHUNK_BITS;

/**
 * A growable list of pairs of people kept in chunks: growing adds a chunk and copies nothing, so
 * a list of millions never stands twice in memory.
 */
class PairList {
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

/** Blocks as lists: each person's block numbers (ascending) and each block's members, flat (CSR). */
interface BlockLists {
  personStart: Int32Array;
  blocksOfPerson: Int32Array;
  blockStart: Int32Array;
  members: Int32Array;
  blockCount: number;
}

/**
 * Each person's keys as numbers (hash, then person) in one array sorted natively: no table of
 * key strings, which at a few hundred thousand people would be the largest thing held.
 */
const blockLists = (people: readonly Prepared[]): BlockLists => {
  let shift = 1;
  while (shift <= people.length) shift *= 2;
  // A hash and a person number fitted a double's 53 bits together: hashes are taken in that range.
  const hashRange = Math.min(2 ** 32, 2 ** 53 / shift);
  let hashes = new Uint32Array(Math.max(1024, people.length * 4));
  let persons = new Int32Array(hashes.length);
  let length = 0;
  let person = 0;
  // Two keys of one hash share a block: a few more pairs compared.
  const add = (hash: number): void => {
    if (length === hashes.length) {
      hashes = grown(hashes, new Uint32Array(hashes.length * 2));
      persons = grown(persons, new Int32Array(persons.length * 2));
    }
    hashes[length] = hash % hashRange;
    persons[length++] = person;
  };
  for (; person < people.length; person++) keyHashesOf(people[person]!, add);
  // In order of hash, then person (as added): sorted by the hash's digits, stably.
  const sorted = byHash(hashes.subarray(0, length), persons.subarray(0, length));
  const sortedHashes = sorted.hashes;
  const sortedPersons = sorted.persons;
  const same = (k: number): boolean =>
    sortedHashes[k] === sortedHashes[k - 1] && sortedPersons[k] === sortedPersons[k - 1];
  // Two passes over the sorted keys, the first to count: every list is made at its final size.
  let kept = 0;
  let blockCount = 0;
  for (let k = 0; k < length; k++) {
    if (k > 0 && same(k)) continue; // two keys of one person with one hash
    kept++;
    if (k === 0 || sortedHashes[k] !== sortedHashes[k - 1]) blockCount++;
  }
  const members = new Int32Array(kept);
  const blockStart = new Int32Array(blockCount + 1);
  const personStart = new Int32Array(people.length + 1);
  kept = 0;
  blockCount = 0;
  for (let k = 0; k < length; k++) {
    if (k > 0 && same(k)) continue;
    if (k === 0 || sortedHashes[k] !== sortedHashes[k - 1]) blockCount++;
    const person = sortedPersons[k]!;
    members[kept++] = person;
    blockStart[blockCount] = kept;
    personStart[person + 1]!++;
  }
  for (let i = 0; i < people.length; i++) personStart[i + 1]! += personStart[i]!;
  // In order of block number, so each person's blocks come out ascending.
  const blocksOfPerson = new Int32Array(kept);
  const fillPerson = personStart.slice(0, people.length);
  for (let id = 0; id < blockCount; id++)
    for (let k = blockStart[id]!; k < blockStart[id + 1]!; k++)
      blocksOfPerson[fillPerson[members[k]!]!++] = id;
  return { personStart, blocksOfPerson, blockStart, members, blockCount };
};

const grown = <T extends Uint32Array | Int32Array>(from: T, to: T): T => {
  to.set(from);
  return to;
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

export const blockPairs = (
  people: readonly Prepared[],
  options: BlockingOptions = DEFAULT_BLOCKING,
): BlockedPairs => {
  const { personStart, blocksOfPerson, blockStart, members, blockCount } = blockLists(people);
  const whole = new Uint8Array(blockCount);
  for (let id = 0; id < blockCount; id++)
    whole[id] = blockStart[id + 1]! - blockStart[id]! <= options.maxBlock ? 1 : 0;

  // Each person's blocks that were compared whole and hold another person, ascending: only those
  // can have compared a pair already.
  const wholeStart = new Int32Array(people.length + 1);
  for (let i = 0; i < people.length; i++) {
    let count = 0;
    for (let k = personStart[i]!; k < personStart[i + 1]!; k++)
      if (
        whole[blocksOfPerson[k]!] &&
        blockStart[blocksOfPerson[k]! + 1]! - blockStart[blocksOfPerson[k]!]! >= 2
      )
        count++;
    wholeStart[i + 1] = wholeStart[i]! + count;
  }
  const wholeOfPerson = new Int32Array(wholeStart[people.length]!);
  for (let i = 0, at = 0; i < people.length; i++)
    for (let k = personStart[i]!; k < personStart[i + 1]!; k++)
      if (
        whole[blocksOfPerson[k]!] &&
        blockStart[blocksOfPerson[k]! + 1]! - blockStart[blocksOfPerson[k]!]! >= 2
      )
        wholeOfPerson[at++] = blocksOfPerson[k]!;

  /** Whether i and j share a block numbered below `id` that was compared whole. */
  const comparedBefore = (i: number, j: number, id: number): boolean => {
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

  const found = new PairList();
  const { rankOf, personAt } = orderRanks(people, blockStart, members, whole);
  let blocksSkipped = 0;
  /** Whether a pair from a block compared in part may repeat: those are made unique at the end. */
  let repeats = false;
  const emit = (i: number, j: number, id: number, inWindow: boolean): void => {
    const a = i < j ? i : j;
    const b = i < j ? j : i;
    if (comparedBefore(a, b, id)) return;
    if (inWindow) repeats = true;
    found.push(a, b);
  };
  for (let id = 0; id < blockCount; id++) {
    const start = blockStart[id]!;
    const end = blockStart[id + 1]!;
    if (end - start < 2) continue;
    if (whole[id]) {
      for (let x = start; x < end; x++)
        for (let y = x + 1; y < end; y++) emit(members[x]!, members[y]!, id, false);
      continue;
    }
    blocksSkipped++;
    // The block's people in order of name and e-mail: by their places in that order, sorted as numbers.
    const ordered = Int32Array.from(members.subarray(start, end), (i) => rankOf[i]!).sort();
    for (let x = 0; x < ordered.length; x++) ordered[x] = personAt[ordered[x]!]!;
    for (let x = 0; x < ordered.length; x++) {
      for (let y = x + 1; y < Math.min(ordered.length, x + 1 + options.window); y++)
        emit(ordered[x]!, ordered[y]!, id, true);
    }
  }

  // Pairs compared in part may meet twice: put in order and made unique.
  return { ...(repeats ? sortedUnique(found, people.length) : split(found)), blocksSkipped };
};

/**
 * Each person's place in the order of name and e-mail local part (ties by person number), and by
 * place the person: for the people of blocks compared in part, whose keys are made and compared
 * once here rather than in every block they are in.
 */
const orderRanks = (
  people: readonly Prepared[],
  blockStart: Int32Array,
  members: Int32Array,
  whole: Uint8Array,
): { rankOf: Int32Array; personAt: Int32Array } => {
  const rankOf = new Int32Array(people.length).fill(-1);
  const ranked: number[] = [];
  for (let id = 0; id < whole.length; id++) {
    if (whole[id]) continue;
    for (let k = blockStart[id]!; k < blockStart[id + 1]!; k++) {
      const person = members[k]!;
      if (rankOf[person] === -1) {
        rankOf[person] = 0;
        ranked.push(person);
      }
    }
  }
  const order = orderedByName(people, ranked);
  const personAt = new Int32Array(order.length);
  order.forEach((person, rank) => {
    personAt[rank] = person;
    rankOf[person] = rank;
  });
  return { rankOf, personAt };
};

/** Above this many, one person's partners are sorted natively rather than by insertion. */
const INSERTION_SORTED = 32;

/**
 * The pairs once each, in order of a then b, as two lists: counted per a, placed,
 * and each a's few partners sorted (no sort of every pair at once).
 */
const sortedUnique = (pairs: PairList, people: number): { a: Int32Array; b: Int32Array; count: number } => {
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
const split = (pairs: PairList): { a: Int32Array; b: Int32Array; count: number } => {
  const left = new Int32Array(pairs.length);
  const right = new Int32Array(pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    left[k] = pairs.a(k);
    right[k] = pairs.b(k);
  }
  return { a: left, b: right, count: pairs.length };
};

const SPACE = 0x20;

/** Whether a name holds a character that does not sort after the space joining an order key's parts. */
const holdsSpaceOrBelow = (value: string): boolean => {
  for (let k = 0; k < value.length; k++) if (value.charCodeAt(k) <= SPACE) return true;
  return false;
};

/**
 * `ranked` in order of orderKeyOf, ties by person: by numbers for the last and
 * first names' places among the distinct names, then the few people of one name by local part.
 * Where a name holds a space or a character below it, the key's order is not the names' order:
 * then by the keys themselves.
 */
const orderedByName = (people: readonly Prepared[], ranked: readonly number[]): number[] => {
  const lasts = distinctSorted(ranked, (person) => people[person]!.last);
  const firsts = distinctSorted(ranked, (person) => people[person]!.first);
  const names = lasts.size * firsts.size;
  const shift = 2 ** Math.ceil(Math.log2(people.length + 1));
  if (!lasts.plain || !firsts.plain || names * shift > Number.MAX_SAFE_INTEGER)
    return orderedByKey(people, ranked);
  const sorted = Float64Array.from(
    ranked,
    (person) =>
      (lasts.place.get(people[person]!.last)! * firsts.size + firsts.place.get(people[person]!.first)!) *
        shift +
      person,
  ).sort();
  const order = Array.from(sorted, (value) => value % shift);
  // People of one name: by local part, then person.
  for (let from = 0; from < sorted.length;) {
    const name = Math.floor(sorted[from]! / shift);
    let to = from + 1;
    while (to < sorted.length && Math.floor(sorted[to]! / shift) === name) to++;
    if (to - from > 1) {
      const group = order.slice(from, to);
      const locals = group.map((person) => people[person]!.locals[0] ?? '');
      const within = group.map((_, k) => k);
      within.sort((x, y) =>
        locals[x]! < locals[y]! ? -1 : locals[x]! > locals[y]! ? 1 : group[x]! - group[y]!,
      );
      for (let k = 0; k < within.length; k++) order[from + k] = group[within[k]!]!;
    }
    from = to;
  }
  return order;
};

/** The distinct values, their places in sorted order, and whether none holds a space or below. */
const distinctSorted = (
  ranked: readonly number[],
  valueOf: (person: number) => string,
): { place: Map<string, number>; size: number; plain: boolean } => {
  const place = new Map<string, number>();
  for (const person of ranked) place.set(valueOf(person), 0);
  const values = [...place.keys()].sort();
  values.forEach((value, k) => place.set(value, k));
  return { place, size: values.length, plain: !values.some(holdsSpaceOrBelow) };
};

/** The same order, by order keys compared as strings. */
const orderedByKey = (people: readonly Prepared[], ranked: readonly number[]): number[] => {
  const keys = ranked.map((person) => orderKeyOf(people[person]!));
  const order = ranked.map((_, k) => k);
  order.sort((x, y) => (keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : ranked[x]! - ranked[y]!));
  return order.map((k) => ranked[k]!);
};

/** Name, then e-mail local part: within a block of one name, the same local part sorts together. */
const orderKeyOf = (p: Prepared): string => `${p.last} ${p.first} ${p.locals[0] ?? ''}`;
