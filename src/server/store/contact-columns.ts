import { CONTACT_WRITE_FIELDS, type ContactWrite } from '../../core/schemas/contact.js';

/** Write fields that are lists or list operations: kept in their own tables, merged on update. */
export const LIST_FIELDS = [
  'contact_emails',
  'contact_phone_numbers',
  'groups_contacts',
  'tags_contacts',
  'custom_fields',
  'related_contacts',
] as const satisfies readonly (keyof ContactWrite)[];

type ListField = (typeof LIST_FIELDS)[number];
export type ScalarField = Exclude<keyof ContactWrite, ListField>;

/** Object-valued write fields whose inner shape docs/api-reference.md does not show: stored as JSON text. */
const JSON_FIELDS = new Set<string>([
  'coordinates',
  'worknet_data',
  'web_search_summary',
  'legacy_contact_addresses',
  'contact_birthdays',
]);
const BOOLEAN_FIELDS = new Set<string>(['starred', 'never_keep_in_touch', 'is_archived', 'ignore_merge']);
const NUMBER_FIELDS = new Set<string>(['birthday_year']);
/** Flags the response shape requires as booleans: false until set. */
export const FLAGS_DEFAULT_FALSE = new Set<string>(['starred', 'is_archived']);

const listFields = new Set<string>(LIST_FIELDS);

/**
 * Every scalar write field is a column of `contacts` under its write name. Derived from the write
 * schema, so a field added there gets a column (added to existing database files on open).
 */
export const SCALAR_FIELDS = CONTACT_WRITE_FIELDS.filter((field) => !listFields.has(field)) as ScalarField[];

export function columnType(field: string): string {
  if (BOOLEAN_FIELDS.has(field))
    return FLAGS_DEFAULT_FALSE.has(field) ? 'INTEGER NOT NULL DEFAULT 0' : 'INTEGER';
  if (NUMBER_FIELDS.has(field)) return 'REAL';
  return 'TEXT';
}

export type SqlValue = string | number | null;

/** A write value as stored. */
export function encodeScalar(field: string, value: unknown): SqlValue {
  if (value === null || value === undefined) return FLAGS_DEFAULT_FALSE.has(field) ? 0 : null;
  if (BOOLEAN_FIELDS.has(field)) return value ? 1 : 0;
  if (JSON_FIELDS.has(field)) return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A stored value as written. */
export function decodeScalar(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return FLAGS_DEFAULT_FALSE.has(field) ? false : null;
  if (BOOLEAN_FIELDS.has(field)) return value === 1;
  if (JSON_FIELDS.has(field) && typeof value === 'string') return JSON.parse(value) as unknown;
  return value;
}

/** SQL identifiers here come from the schema's own field names; quoting keeps any of them safe. */
export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
