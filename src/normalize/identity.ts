import { normalizeText } from './index.js';
import type { DraftContact } from '../mapping/types.js';

/**
 * docs/design.md "Records, identity and reruns": the pipeline's key columns when given; else the first
 * valid e-mail; else the first phone in E.164; else the normalized full name plus company. The
 * prefix keeps the kinds apart, so a name can never collide with an e-mail.
 */
export const identityKey = (draft: DraftContact, contact: Record<string, unknown>): string | undefined => {
  if (draft.key && draft.key.length > 0) {
    const parts = draft.key.map((v) => normalizeText(v)?.toLowerCase() ?? '');
    if (parts.some((p) => p !== '')) return `key:${parts.join('\u001f')}`;
  }
  const emails = contact.contact_emails as { email: string }[] | undefined;
  if (emails?.[0]) return `email:${emails[0].email}`;
  const phones = contact.contact_phone_numbers as { phone_number_sanitized?: string }[] | undefined;
  if (phones?.[0]?.phone_number_sanitized) return `phone:${phones[0].phone_number_sanitized}`;
  const name = normalizeText(contact.full_name)?.toLowerCase();
  if (name === undefined) return undefined;
  const company = normalizeText(contact.company)?.toLowerCase() ?? '';
  return `name:${name}\u001f${company}`;
};

/**
 * Every identity a record answers to: its key, its ids in the source product (`sources`), then
 * each of its e-mails and phones as the key they would make. The ledger keeps them against the
 * contact, so a record keyed otherwise in a later run (its e-mail fixed, or changed in the CRM
 * while its record id stayed) is found by the ones it had, the source id first.
 */
export const recordIdentities = (
  key: string,
  contact: Record<string, unknown>,
  sources: readonly string[] = [],
): string[] => {
  const identities = new Set([key, ...sources]);
  for (const { email } of (contact.contact_emails as { email: string }[] | undefined) ?? [])
    identities.add(`email:${email}`);
  const phones = contact.contact_phone_numbers as { phone_number_sanitized?: string }[] | undefined;
  for (const { phone_number_sanitized: phone } of phones ?? []) if (phone) identities.add(`phone:${phone}`);
  return [...identities];
};
