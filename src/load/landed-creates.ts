import type { ContactResponse, ContactWrite } from '../core/schemas/index.js';
import type { PendingCreate } from '../state/index.js';

/** The fields a contact answer shows that a create's body carries too (the answers show no e-mails). */
const SHOWN = ['full_name', 'first_name', 'last_name', 'job_title', 'company'] as const;

type Shown = Partial<Record<(typeof SHOWN)[number], string | null | undefined>>;

const shownOf = (contact: Shown): string =>
  JSON.stringify(SHOWN.map((field) => (contact[field] === '' ? null : (contact[field] ?? null))));

/** Whether a contact answer shows what a create's record writes, in the fields both carry. */
export const showsAsWritten = (contact: ContactResponse, write: ContactWrite): boolean =>
  shownOf(contact) === shownOf(write);

const writesOf = (pending: PendingCreate): ContactWrite[] =>
  (JSON.parse(pending.body) as { contacts: ContactWrite[] }).contacts;

/**
 * Whether the contacts a listing found that the ledger does not hold (`unknown`) can all be records
 * of the pending creates, so that nobody else stored a contact there since the stop: each pending
 * chunk is either wholly there (every record matched by a listed contact showing its names, title
 * and company; a create is applied whole) or wholly absent, and no listed contact is left over.
 * A contact someone else stored is left over unless it copies what a whole chunk that never reached
 * the target shows, record for record, and no other contact was stored: then (only then) the
 * pending creates are resent as if nobody had, and that chunk's people are stored twice.
 * False whenever in doubt: the caller then looks the pending records up, which is exact.
 */
export const explainedByPending = (
  unknown: readonly ContactResponse[],
  pendings: readonly PendingCreate[],
): boolean => {
  const left = new Map<string, number>();
  for (const contact of unknown) left.set(shownOf(contact), (left.get(shownOf(contact)) ?? 0) + 1);
  for (const pending of pendings) {
    const needs = new Map<string, number>();
    for (const write of writesOf(pending)) needs.set(shownOf(write), (needs.get(shownOf(write)) ?? 0) + 1);
    if (![...needs].every(([shown, n]) => (left.get(shown) ?? 0) >= n)) continue;
    for (const [shown, n] of needs) left.set(shown, left.get(shown)! - n);
  }
  return [...left.values()].every((n) => n === 0);
};
