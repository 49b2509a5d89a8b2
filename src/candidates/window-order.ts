/**
 * The order in which a block too large to compare whole is walked: by name, then e-mail local
 * part, so that each person's nearest neighbours are the likeliest to be the same person.
 */
import { countingOrder } from './counting-order.js';
import type { FlatPeople } from './flat-people.js';
import type { PreparedName } from './prepare.js';

/**
 * Each person's place in the order of name and e-mail local part (ties by person number), and by
 * place the person: for the people of blocks compared in part, whose keys are made and compared
 * once here rather than in every block they are in.
 */
export const orderRanks = (
  people: FlatPeople,
  blockStart: Int32Array,
  members: Int32Array,
  whole: Uint8Array,
): { rankOf: Int32Array; personAt: Int32Array } => {
  const rankOf = new Int32Array(people.size).fill(-1);
  let count = 0;
  for (let id = 0; id < whole.length; id++) {
    if (whole[id]) continue;
    for (let k = blockStart[id]!; k < blockStart[id + 1]!; k++) {
      const person = members[k]!;
      if (rankOf[person] === -1) {
        rankOf[person] = 0;
        count++;
      }
    }
  }
  // In order of person: the orders below keep ties in that order.
  const ranked = new Int32Array(count);
  for (let person = 0, k = 0; person < people.size; person++) if (rankOf[person] === 0) ranked[k++] = person;
  const personAt = orderedByName(people, ranked);
  for (let rank = 0; rank < personAt.length; rank++) rankOf[personAt[rank]!] = rank;
  return { rankOf, personAt };
};

const SPACE = 0x20;

/** Whether a name holds a character that does not sort after the space joining an order key's parts. */
const holdsSpaceOrBelow = (value: string): boolean => {
  for (let k = 0; k < value.length; k++) if (value.charCodeAt(k) <= SPACE) return true;
  return false;
};

/**
 * `ranked` (ascending) in order of orderKeyOf, ties by person: counted by the last and first
 * names' places among the distinct names, then the few people of one name by local part. Where
 * a name holds a space or a character below it, the key's order is not the names' order: then
 * by the keys themselves.
 */
const orderedByName = (people: FlatPeople, ranked: Int32Array): Int32Array => {
  const lasts = namePlaces(people, ranked, people.lastNames);
  const firsts = namePlaces(people, ranked, people.firstNames);
  if (!lasts.plain || !firsts.plain) return orderedByKey(people, ranked);
  const { placeOf: lastOf } = lasts;
  const { placeOf: firstOf } = firsts;
  const order = countingOrder(countingOrder(ranked, firstOf, firsts.size), lastOf, lasts.size);
  // People of one name (in order of person already): by local part, stably.
  const sorter = new TextOrder();
  const localOf = (person: number): string => people.firstLocal(person);
  for (let from = 0; from < order.length;) {
    const last = lastOf[order[from]!]!;
    const first = firstOf[order[from]!]!;
    let to = from + 1;
    while (to < order.length && lastOf[order[to]!] === last && firstOf[order[to]!] === first) to++;
    if (to - from > 1) sorter.sort(order, from, to, localOf);
    from = to;
  }
  return order;
};

/** Below this many, a run is sorted by insertion. */
const INSERTION_SORTED = 12;

/**
 * Sorts part of a list of people stably by a text of each, merging sorted runs: each comparison
 * is made in place, where a comparator would be called once per comparison.
 */
class TextOrder {
  private texts: string[] = [];
  private places = new Int32Array(64);
  private spare = new Int32Array(64);

  sort(order: Int32Array, from: number, to: number, textOf: (person: number) => string): void {
    const count = to - from;
    const { texts } = this;
    texts.length = 0;
    for (let k = from; k < to; k++) texts.push(textOf(order[k]!));
    if (this.places.length < count) {
      this.places = new Int32Array(2 * count);
      this.spare = new Int32Array(2 * count);
    }
    let places = this.places;
    let spare = this.spare;
    for (let k = 0; k < count; k++) places[k] = k;
    for (let start = 0; start < count; start += INSERTION_SORTED) {
      const end = Math.min(count, start + INSERTION_SORTED);
      for (let k = start + 1; k < end; k++) {
        const place = places[k]!;
        const text = texts[place]!;
        let at = k;
        for (; at > start && texts[places[at - 1]!]! > text; at--) places[at] = places[at - 1]!;
        places[at] = place;
      }
    }
    for (let width = INSERTION_SORTED; width < count; width *= 2) {
      for (let start = 0; start < count; start += 2 * width) {
        const middle = Math.min(count, start + width);
        const end = Math.min(count, start + 2 * width);
        let x = start;
        let y = middle;
        let at = start;
        // The left run's first on ties: stable.
        while (x < middle && y < end)
          spare[at++] = texts[places[y]!]! < texts[places[x]!]! ? places[y++]! : places[x++]!;
        while (x < middle) spare[at++] = places[x++]!;
        while (y < end) spare[at++] = places[y++]!;
      }
      [places, spare] = [spare, places];
    }
    const people = order.slice(from, to);
    for (let k = 0; k < count; k++) order[from + k] = people[places[k]!]!;
    texts.length = 0;
  }
}

/**
 * Per person of `ranked`, the place of its name among the distinct names in sorted order; how
 * many distinct names; whether none holds a space or below.
 */
const namePlaces = (
  people: FlatPeople,
  ranked: Int32Array,
  namesOfPeople: readonly PreparedName[],
): { placeOf: Int32Array; size: number; plain: boolean } => {
  const numbers = new Map<string, number>();
  const names: string[] = [];
  const placeOf = new Int32Array(people.size);
  for (let k = 0; k < ranked.length; k++) {
    const person = ranked[k]!;
    const name = namesOfPeople[person]!.name;
    let number = numbers.get(name);
    if (number === undefined) {
      numbers.set(name, (number = names.length));
      names.push(name);
    }
    placeOf[person] = number;
  }
  const sorted = names
    .map((_, number) => number)
    .sort((x, y) => (names[x]! < names[y]! ? -1 : names[x]! > names[y]! ? 1 : 0));
  const placeOfNumber = new Int32Array(names.length);
  for (let place = 0; place < sorted.length; place++) placeOfNumber[sorted[place]!] = place;
  for (let k = 0; k < ranked.length; k++) placeOf[ranked[k]!] = placeOfNumber[placeOf[ranked[k]!]!]!;
  return { placeOf, size: names.length, plain: !names.some(holdsSpaceOrBelow) };
};

/** The same order, by order keys compared as strings. */
const orderedByKey = (people: FlatPeople, ranked: Int32Array): Int32Array => {
  const keys = Array.from(ranked, (person) => orderKeyOf(people, person));
  const order = Array.from(ranked, (_, k) => k);
  order.sort((x, y) => (keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : ranked[x]! - ranked[y]!));
  return Int32Array.from(order, (k) => ranked[k]!);
};

/** Name, then e-mail local part: within a block of one name, the same local part sorts together. */
const orderKeyOf = (people: FlatPeople, i: number): string =>
  `${people.lastNames[i]!.name} ${people.firstNames[i]!.name} ${people.firstLocal(i)}`;
