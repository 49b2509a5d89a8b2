import type { ContactJson, ContactWrite } from '../core/schemas/index.js';
import { canonicalJson, textHash } from '../state/index.js';
import type { NormalizedRecord } from '../normalize/record.js';

export interface ReferenceIds {
  groups: Map<string, string>;
  customFields: Map<string, string>;
}

/** A record's write, as an object (previews read it) and as the one JSON text hashed and sent. */
export interface Write {
  write: ContactWrite;
  json: ContactJson;
}

/**
 * The contact as the service receives it: references by id (DESIGN.md "References first"), its
 * keys in sorted order at every depth, and serialized once. Sorted keys make JSON.stringify of
 * it the canonical JSON (state/content-hash.ts) the ledger's hashes were always made from, so a
 * ledger written before the text was hashed directly still finds every record unchanged.
 */
export const toWrite = (record: NormalizedRecord, ids: ReferenceIds): Write => {
  const write: ContactWrite = { ...record.contact };
  const groups = record.groups.flatMap((name) => {
    const id = ids.groups.get(name);
    return id ? [{ group_id: id }] : [];
  });
  if (groups.length > 0) write.groups_contacts = groups;
  const values = record.customFields.flatMap((field) => {
    const id = ids.customFields.get(field.name);
    return id ? [{ id, text_value: field.value, type: field.fieldType }] : [];
  });
  if (values.length > 0) write.custom_fields = values;
  const ordered = inKeyOrder(write);
  // An object whose keys JSON.stringify cannot write in sorted order (below) is written canonically.
  if (ordered === UNORDERABLE) return { write, json: canonicalJson(write) as ContactJson };
  return { write: ordered as ContactWrite, json: JSON.stringify(ordered) as ContactJson };
};

/** What "unchanged" compares: the write's text, so a changed group or field id counts too. */
export const writeHash = (json: ContactJson): string => textHash(json);

const UNORDERABLE = Symbol('unorderable');

const isSorted = (keys: readonly string[]): boolean => {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
};

const sameOrder = (a: readonly string[], b: readonly string[]): boolean => a.every((key, i) => key === b[i]);

/**
 * `value` (plain JSON data, as parsed from the staging) with every object's keys in sorted order;
 * what is in order already is returned as it is, so a record built in order costs one scan. An
 * integer-like key ("2", "10") is enumerated before the others in numeric order whatever the
 * insertion order: an object where that differs from sorted order is UNORDERABLE.
 */
function inKeyOrder(value: unknown): unknown {
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
