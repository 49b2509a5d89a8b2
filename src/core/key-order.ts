/**
 * Objects with their keys in sorted order at every depth: JSON.stringify of such a value is the
 * canonical JSON (state/content-hash.ts) the ledger's hashes are made from. The normalizer's
 * records are put in order once where they are serialized (a worker), so the load stage only
 * checks them (load/write-object.ts).
 */

export const UNORDERABLE = Symbol('unorderable');

const isSorted = (keys: readonly string[]): boolean => {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
};

/**
 * Every object's keys in sorted order at every depth, as enumerated (so JSON.stringify writes the
 * canonical JSON), checked without building anything. An integer-like key is enumerated first, so
 * "10" before "2" reads as out of order: inKeyOrder decides those.
 */
export const isInKeyOrder = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!isInKeyOrder(item)) return false;
    return true;
  }
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && previous > key) return false;
    if (!isInKeyOrder((value as Record<string, unknown>)[key])) return false;
    previous = key;
  }
  return true;
};

const sameOrder = (a: readonly string[], b: readonly string[]): boolean => a.every((key, i) => key === b[i]);

/**
 * `value` (plain JSON data, as parsed from the staging) with every object's keys in sorted order;
 * what is in order already is returned as it is, so a record built in order costs one scan. An
 * integer-like key ("2", "10") is enumerated before the others in numeric order whatever the
 * insertion order: an object where that differs from sorted order is UNORDERABLE.
 */
export function inKeyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = inKeyOrder(value[i]);
      if (item === UNORDERABLE) return UNORDERABLE;
      if (item !== value[i]) (copy ??= [...(value as unknown[])])[i] = item;
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  const sorted = isSorted(keys) ? keys : [...keys].sort();
  let changed = sorted !== keys;
  const members = sorted.map((key) => {
    const member = inKeyOrder(source[key]);
    if (member !== source[key]) changed = true;
    return member;
  });
  if (members.includes(UNORDERABLE)) return UNORDERABLE;
  if (!changed) return value;
  // fromEntries defines own properties: a "__proto__" key stays a key.
  const copy = Object.fromEntries(sorted.map((key, i) => [key, members[i]]));
  return sameOrder(Object.keys(copy), sorted) ? copy : UNORDERABLE;
}

/**
 * The object with its own keys in sorted order (not its members' keys), itself when they are;
 * for a record whose lists are built in order (the normalizer's), the one level left to order.
 */
export const withSortedKeys = <T extends object>(value: T): T => {
  const keys = Object.keys(value);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return value;
  const ordered: Record<string, unknown> = {};
  for (const key of keys.sort()) ordered[key] = (value as Record<string, unknown>)[key];
  return ordered as T;
};
