import type { ContactJson, ContactWrite } from '../core/schemas/index.js';
import { inKeyOrder, isInKeyOrder, UNORDERABLE } from '../core/key-order.js';
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
 * The contact as the service receives it: references by id (docs/design.md "Shape"), its keys in
 * sorted order at every depth, and serialized once. Sorted keys make JSON.stringify of it the
 * canonical JSON (state/content-hash.ts): the same record always gives the same text, so the
 * same hash in the ledger.
 */
export const toWrite = (record: NormalizedRecord, ids: ReferenceIds): Write => {
  const groups = record.groups.flatMap((name) => {
    const id = ids.groups.get(name);
    return id ? [{ group_id: id }] : [];
  });
  const values = record.customFields.flatMap((field) => {
    const id = ids.customFields.get(field.name);
    return id ? [{ id, text_value: field.value, type: field.fieldType }] : [];
  });
  const write = withReferences(record.contact, values, groups);
  // Built in order from a contact in order (the normalizer's), it is checked, not copied again.
  if (isInKeyOrder(write)) return { write, json: JSON.stringify(write) as ContactJson };
  const ordered = inKeyOrder(write);
  // An object whose keys JSON.stringify cannot write in sorted order (below) is written canonically.
  if (ordered === UNORDERABLE) return { write, json: canonicalJson(write) as ContactJson };
  return { write: ordered as ContactWrite, json: JSON.stringify(ordered) as ContactJson };
};

/**
 * The contact's members with `custom_fields` and `groups_contacts` (when there are any) placed
 * where sorted order puts them among the contact's keys, which are in order already when the
 * normalizer built them.
 */
const withReferences = (
  contact: NormalizedRecord['contact'],
  values: NonNullable<ContactWrite['custom_fields']>,
  groups: NonNullable<ContactWrite['groups_contacts']>,
): ContactWrite => {
  const write: Record<string, unknown> = {};
  let fieldsPlaced = values.length === 0;
  let groupsPlaced = groups.length === 0;
  for (const key of Object.keys(contact)) {
    if (!fieldsPlaced && key > 'custom_fields') {
      write.custom_fields = values;
      fieldsPlaced = true;
    }
    if (!groupsPlaced && key > 'groups_contacts') {
      write.groups_contacts = groups;
      groupsPlaced = true;
    }
    write[key] = (contact as Record<string, unknown>)[key];
  }
  if (!fieldsPlaced) write.custom_fields = values;
  if (!groupsPlaced) write.groups_contacts = groups;
  return write as ContactWrite;
};

/** What "unchanged" compares: the write's text, so a changed group or field id counts too. */
export const writeHash = (json: ContactJson): string => textHash(json);
