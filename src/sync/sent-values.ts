import type { NormalizedRecord } from '../core/record.js';
import { contactWriteSchema } from '../core/schemas/index.js';
import type { SentValues } from '../state/index.js';

type Contact = NormalizedRecord['contact'];

/** An e-mail as the service keys it: the same address in another case is the same entry. */
export const emailKey = (email: string): string => email.toLowerCase();

/**
 * What a sync run sends for a record: its e-mails, its phones (each by the number the service
 * keys it by, E.164 when normalized) and its scalar fields with a value.
 */
export const sentValuesOf = (contact: Contact): SentValues => {
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(contact)) {
    if (typeof value === 'string' || typeof value === 'number') fields[field] = String(value);
  }
  return {
    emails: (contact.contact_emails ?? []).map((e) => e.email),
    phones: (contact.contact_phone_numbers ?? []).map((p) => ({
      phone_number: p.phone_number_sanitized ?? p.phone_number,
      ...(p.label !== undefined ? { label: p.label } : {}),
    })),
    fields,
  };
};

const shape = contactWriteSchema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;

/** A field the service lets a write set to null: only those can be cleared. */
export const isClearable = (field: string): boolean => shape[field]?.safeParse(null).success === true;
