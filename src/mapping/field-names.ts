import { CONTACT_WRITE_FIELDS } from '../core/schemas/index.js';

/**
 * The names a pipeline file maps to, apart from its schema (schema.ts): the mapping reads them on
 * every run, while the schema is built only for a pipeline file the build did not check.
 */

export const NAME_PARTS = ['full', 'first', 'middle', 'last', 'prefix', 'suffix', 'nickname'] as const;
export type NamePart = (typeof NAME_PARTS)[number];

/** Fields mapped elsewhere in the file (names, lists) or only meaningful as service ids. */
const NOT_SCALAR_FIELDS = new Set<string>([
  'full_name',
  'first_name',
  'last_name',
  'contact_emails',
  'contact_phone_numbers',
  'groups_contacts',
  'custom_fields',
  'contact_birthdays',
]);

/**
 * Write fields that hold a list: their reference may name a `{n}` family, and every present value
 * of every alternative is kept (`ADR.{n}.formatted` -> one address each).
 */
export const LIST_FIELDS: ReadonlySet<string> = new Set(['legacy_contact_addresses']);

/** Contact write fields a column can fill directly, by their write name. */
export const MAPPABLE_FIELDS = CONTACT_WRITE_FIELDS.filter((field) => !NOT_SCALAR_FIELDS.has(field));
