import type { ContactEmail, ContactPhone } from '../core/schemas/index.js';
import type { NormalizedRecord } from '../core/record.js';
import { RECORD_LIMITS } from '../normalize/record-limits.js';

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * docs/design.md: duplicates are merged into the first record: lists unioned, first non-empty value
 * wins. Returns a new record; the inputs are left as they were.
 */
export const mergeRecords = (first: NormalizedRecord, duplicate: NormalizedRecord): NormalizedRecord => {
  const contact: Record<string, unknown> = { ...first.contact };
  for (const [field, value] of Object.entries(duplicate.contact)) {
    if (field === 'contact_emails' || field === 'contact_phone_numbers') continue;
    if (isEmpty(contact[field]) && !isEmpty(value)) contact[field] = value;
  }
  // A merged record keeps the limits of one record (the duplicate's issue says it was merged).
  const emails = unionBy(
    first.contact.contact_emails,
    duplicate.contact.contact_emails,
    (e: ContactEmail) => e.email,
  ).slice(0, RECORD_LIMITS.emails);
  if (emails.length > 0) contact.contact_emails = emails;
  const phones = unionBy(
    first.contact.contact_phone_numbers,
    duplicate.contact.contact_phone_numbers,
    (p: ContactPhone) => p.phone_number_sanitized ?? p.phone_number,
  ).slice(0, RECORD_LIMITS.phones);
  if (phones.length > 0) contact.contact_phone_numbers = phones;

  return {
    ...first,
    contact,
    groups: [...new Set([...first.groups, ...duplicate.groups])],
    customFields: unionBy(first.customFields, duplicate.customFields, (c) => c.name),
    reminders: unionBy(first.reminders, duplicate.reminders, (r) => `${r.text}\u001f${r.due_at_date}`),
    ...(first.sources || duplicate.sources
      ? { sources: [...new Set([...(first.sources ?? []), ...(duplicate.sources ?? [])])] }
      : {}),
  };
};

/** Items of `a`, then items of `b` whose key `a` lacks; rankings (when present) renumbered 1..n. */
const unionBy = <T>(a: T[] | undefined, b: T[] | undefined, keyOf: (item: T) => string): T[] => {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const item of [...(a ?? []), ...(b ?? [])]) {
    const key = keyOf(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out.map((item, index) =>
    item && typeof item === 'object' && 'ranking' in item ? { ...item, ranking: index + 1 } : item,
  );
};
