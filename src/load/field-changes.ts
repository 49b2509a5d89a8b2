import { CONTACT_SCALAR_FIELDS, type ContactResponse, type ContactWrite } from '../core/schemas/index.js';
import type { ChangeRow } from './types.js';
import { imageHolds, type KnownImage } from './known-image.js';

/**
 * The scalar fields a contact answer shows (docs/api-reference.md "Contact, response shape") that an import
 * writes: the only fields whose value before a run is known, so the only ones a preview can show
 * and an undo can put back. `is_archived` is left out: an import never writes it.
 */
export type ScalarField = Exclude<(typeof CONTACT_SCALAR_FIELDS)[number], 'is_archived'>;
export const SCALAR_FIELDS: readonly ScalarField[] = CONTACT_SCALAR_FIELDS.filter(
  (field): field is ScalarField => field !== 'is_archived',
);
export type ScalarValue = string | boolean | null;
export type ScalarImage = Partial<Record<ScalarField, ScalarValue>>;

/** List fields: a write adds to them, and the API cannot take one entry back. */
const LIST_FIELDS = new Set<string>([
  'contact_emails',
  'contact_phone_numbers',
  'groups_contacts',
  'custom_fields',
  'legacy_contact_addresses',
  'tags_contacts',
  'related_contacts',
]);

/** What an update changes on one contact: the scalar fields before and after, and what no answer shows. */
export interface FieldChanges {
  /** The contact's values of the changed fields as the service answered them. */
  before: ScalarImage;
  /** What the run writes to those fields. */
  after: ScalarImage;
  /** Other fields the write sets whose earlier value no answer shows (`education`, `birthday_year`). */
  unknown: string[];
  /** List entries the write adds (or may add): `field: value` each. */
  lists: string[];
}

const asScalar = (value: unknown): ScalarValue =>
  value === undefined || value === null ? null : typeof value === 'boolean' ? value : String(value);

export const sameScalar = (a: unknown, b: unknown): boolean => asScalar(a) === asScalar(b);

/** A value as changes.csv shows it: empty for none. */
export const scalarText = (value: unknown): string => {
  const scalar = asScalar(value);
  return scalar === null ? '' : String(scalar);
};

const listValues = (field: string, value: unknown, matchedEmail?: string, image?: KnownImage): string[] => {
  if (!Array.isArray(value)) return [`${field}: ${JSON.stringify(value)}`];
  return value.flatMap((entry: Record<string, unknown>) => {
    // What this ledger's runs wrote to the contact already is there: no addition.
    if (imageHolds(image, field, entry)) return [];
    const shown =
      entry.email ?? entry.phone_number ?? entry.group_id ?? entry.formatted ?? JSON.stringify(entry);
    const text =
      field === 'custom_fields' ? `${String(entry.id)}=${String(entry.text_value)}` : String(shown);
    // The address the contact was found by is on it already: writing it adds nothing.
    if (field === 'contact_emails' && matchedEmail !== undefined && text === matchedEmail) return [];
    return [`${field}: ${text}`];
  });
};

/**
 * Compares what an update writes with the contact as the service answered it: the scalar fields
 * that change (from what to what), the fields whose earlier value is unknown, the list additions.
 */
export const fieldChanges = (
  current: ContactResponse,
  write: ContactWrite,
  matchedEmail?: string,
  image?: KnownImage,
): FieldChanges => {
  const changes: FieldChanges = { before: {}, after: {}, unknown: [], lists: [] };
  const scalar = new Set<string>(SCALAR_FIELDS);
  for (const [field, value] of Object.entries(write)) {
    if (value === undefined) continue;
    if (scalar.has(field)) {
      const key = field as ScalarField;
      if (sameScalar(current[key], value)) continue;
      changes.before[key] = asScalar(current[key]);
      changes.after[key] = asScalar(value);
    } else if (LIST_FIELDS.has(field)) {
      changes.lists.push(...listValues(field, value, matchedEmail, image));
    } else {
      changes.unknown.push(field);
    }
  }
  return changes;
};

export const changeRows = (
  place: { file: string; row: number; contactId: string },
  before: ScalarImage,
  after: ScalarImage,
): ChangeRow[] =>
  (Object.keys(after) as ScalarField[]).map((field) => ({
    ...place,
    field,
    old: scalarText(before[field]),
    new: scalarText(after[field]),
  }));

/** A list addition as changes.csv shows it: `field` the list, `old` empty, `new` the entry added. */
export const listRows = (
  place: { file: string; row: number; contactId: string },
  lists: readonly string[],
): ChangeRow[] =>
  lists.map((text) => {
    const at = text.indexOf(': ');
    return { ...place, field: text.slice(0, at), old: '', new: text.slice(at + 2) };
  });
