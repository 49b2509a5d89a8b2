import type { ContactWrite } from '../../core/schemas/contact.js';
import { LIMITS } from '../../core/schemas/limits.js';
import { invalidBodyAt, type WriteLocation } from '../envelope.js';
import type { KeyedList } from './keyed-lists.js';

/** docs/design.md: the most entries one contact's list holds; a write beyond it is a 400. */
export const MAX_LIST_ENTRIES = LIMITS.maxListEntries;

const count = (n: number): string => n.toLocaleString('en-US');

const arrayOrUndefined = (value: unknown): unknown[] | undefined =>
  Array.isArray(value) ? value : undefined;

/** Every array a contact write may carry, by its path inside the write. */
const WRITE_LISTS: readonly [string, (write: ContactWrite) => unknown[] | undefined][] = [
  ['contact_emails', (w) => w.contact_emails],
  ['contact_phone_numbers', (w) => w.contact_phone_numbers],
  ['groups_contacts', (w) => w.groups_contacts],
  ['custom_fields', (w) => w.custom_fields],
  ['legacy_contact_addresses', (w) => w.legacy_contact_addresses],
  ['tags_contacts.append', (w) => w.tags_contacts?.append],
  ['tags_contacts.remove', (w) => w.tags_contacts?.remove],
  ['tags_contacts.replace', (w) => arrayOrUndefined(w.tags_contacts?.replace)],
  ['related_contacts.append', (w) => w.related_contacts?.append],
  ['related_contacts.remove', (w) => w.related_contacts?.remove],
  ['related_contacts.replace', (w) => arrayOrUndefined(w.related_contacts?.replace)],
];

/** A 400 when one list in a request has more entries than a contact may hold. */
export function checkListLength(length: number, path: string, index?: number): void {
  if (length > MAX_LIST_ENTRIES) {
    throw invalidBodyAt(
      path,
      `${count(length)} entries sent; a contact's list holds at most ${count(MAX_LIST_ENTRIES)}.`,
      index,
    );
  }
}

/** Checks every list of a write before any of it is applied, so an oversized one costs nothing. */
export function checkWriteLists(write: ContactWrite, at: WriteLocation): void {
  for (const [field, listOf] of WRITE_LISTS) {
    const list = listOf(write);
    if (list) checkListLength(list.length, `${at.prefix}${field}`, at.index);
  }
}

/**
 * A 400 when a merge grew the stored list past the cap. A list already over it (a database from
 * before the cap) may still be written as long as the write adds nothing.
 */
export function checkStoredSize(list: KeyedList, sizeBefore: number, path: string, index?: number): void {
  const size = list.keys.size;
  if (size > MAX_LIST_ENTRIES && size > sizeBefore) {
    throw invalidBodyAt(
      path,
      `This contact would hold ${count(size)} entries in this list; at most ${count(MAX_LIST_ENTRIES)}.`,
      index,
    );
  }
}
