/** What the matcher compares of a normalized contact. */
import type { NormalizedRecord } from '../core/record.js';
import type { PersonFields } from './types.js';

type Contact = NormalizedRecord['contact'];

/** First part of a formatted address: `12 High St, Leeds` -> `12 High St`. */
const streetOf = (formatted: string | undefined): string | undefined =>
  formatted?.split(/[,\n]/u)[0]?.trim() || undefined;

export const personOf = (contact: Contact): PersonFields => {
  const birthday = contact.birthday ?? undefined;
  return {
    firstName: contact.first_name,
    lastName: contact.last_name,
    fullName: contact.full_name,
    emails: contact.contact_emails?.map((e) => e.email),
    phones: contact.contact_phone_numbers?.map((p) => p.phone_number_sanitized ?? p.phone_number),
    company: contact.company,
    jobTitle: contact.job_title,
    // Without `birthday_year` the year of `birthday` is a placeholder (normalize/field-normalizers.ts).
    birthday: birthday && contact.birthday_year == null ? `--${birthday.slice(5)}` : birthday,
    street: streetOf(contact.legacy_contact_addresses?.[0]?.formatted),
    city: contact.legacy_location,
  };
};
