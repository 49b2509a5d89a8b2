/**
 * The order in which a block too large to compare whole is walked: by name, then e-mail local
 * part, so that each person's nearest neighbours are the likeliest to be the same person.
 */
import type { Prepared } from './prepare.js';

/**
 * Each person's place in the order of name and e-mail local part (ties by person number), and by
 * place the person: for the people of blocks compared in part, whose keys are made and compared
 * once here rather than in every block they are in.
 */
export const orderRanks = (
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
