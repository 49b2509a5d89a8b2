import type { NormalizedRecord } from '../core/record.js';
import type { ContactWrite, LegacyUpdateBody } from '../core/schemas/index.js';
import type { ResolvedKey, SentChange, SentValues, SyncEffect } from '../state/index.js';
import { diffSent, isEmptyDiff, type MemberDiff } from './diff.js';
import { isClearable, sentValuesOf } from './sent-values.js';

/** What one present member of the scope needs sent, and what the ledger keeps of it. */
export interface MemberWork {
  record: NormalizedRecord;
  contactId: string;
  diff: MemberDiff;
  unarchive: boolean;
  /** An archive a killed run sent with no answer recorded: sent back to is_archived false, no effect. */
  inFlight: boolean;
  /** E11: the source's whole lists, for the lists that lost an entry. */
  legacy?: LegacyUpdateBody;
  /** E1: unarchive, the cleared fields (null), and the lists again (E11 keeps no label). */
  data?: ContactWrite;
}

/** One batch of staged records, sorted into the scope's members and what each needs. */
export interface BatchPlan {
  /** Contact ids these records resolved to (present at the source, never archived). */
  present: string[];
  /** Members joined or refreshed once the work is sent: what was sent to each, and what was before. */
  members: SentChange[];
  work: MemberWork[];
  effects: SyncEffect[];
}

const NO_DIFF: MemberDiff = Object.freeze({ removedEmails: [], removedPhones: [], cleared: [] });

/** A staged record with what a sync run would send for it: computed before the ledger is read. */
export interface SyncRecord {
  record: NormalizedRecord;
  now: SentValues;
  /** `now` as the ledger stores it (JSON.stringify), compared with a member's stored text. */
  nowJson: string;
}

export const syncRecordOf = (record: NormalizedRecord): SyncRecord => {
  const now = sentValuesOf(record.contact);
  return { record, now, nowJson: JSON.stringify(now) };
};

/**
 * Sorts a batch (`resolved`: its keys' contacts and memberships, SyncLedger.resolve): a record
 * whose contact another sync scope holds is left alone; a contact new to
 * the scope joins it; a member is compared with what the scope last sent (diff.ts).
 * `clearableOf(input)`: the fields that input's header has a column for. `inFlight`: members whose
 * archive a killed run sent with no answer recorded; one present again is unarchived to be sure.
 */
export const planBatch = (
  records: readonly SyncRecord[],
  resolved: ReadonlyMap<string, ResolvedKey>,
  clearableOf: (input: number) => ReadonlySet<string>,
  inFlight: ReadonlySet<string> = new Set(),
): BatchPlan => {
  const plan: BatchPlan = { present: [], members: [], work: [], effects: [] };
  for (const { record, now, nowJson } of records) {
    const found = resolved.get(record.key);
    if (found === undefined) continue;
    const { contactId, member } = found;
    plan.present.push(contactId);
    if (found.other) continue;
    // Rewritten only when it changed: a weekly run where most people are as they were writes little.
    // The stored text is what JSON.stringify made of what was sent: compared as text, not parsed.
    const changed = !member || member.sentJson !== nowJson;
    if (changed || member.archived)
      plan.members.push({
        contactId,
        key: record.key,
        sent: now,
        ...(changed ? { before: member ? member.sent : null } : {}),
      });
    if (!member) continue;
    const diff = changed ? diffSent(member.sent, now, clearableOf(record.input)) : NO_DIFF;
    const pending = inFlight.has(contactId);
    if (isEmptyDiff(diff) && !member.archived && !pending) continue;
    const work = workOf(record, contactId, diff, member.archived, now, pending && !member.archived);
    plan.work.push(work);
    plan.effects.push(...effectsOf(work));
  }
  return plan;
};

const workOf = (
  record: NormalizedRecord,
  contactId: string,
  diff: MemberDiff,
  unarchive: boolean,
  now: SentValues,
  inFlight: boolean,
): MemberWork => {
  const emails = diff.removedEmails.length > 0;
  const phones = diff.removedPhones.length > 0;
  const legacy: LegacyUpdateBody | undefined =
    emails || phones
      ? {
          contactId,
          ...(emails
            ? {
                update_contact_emails: true,
                contact_emails: now.emails.map((email) => ({ contact_id: contactId, email })),
              }
            : {}),
          ...(phones
            ? {
                update_contact_phone_numbers: true,
                contact_phone_numbers: now.phones.map((p) => ({ contact_id: contactId, ...p })),
              }
            : {}),
        }
      : undefined;
  const data: ContactWrite = {
    ...(unarchive || inFlight ? { is_archived: false } : {}),
    ...Object.fromEntries(diff.cleared.map((c) => [c.field, null])),
    ...(emails && record.contact.contact_emails ? { contact_emails: record.contact.contact_emails } : {}),
    ...(phones && record.contact.contact_phone_numbers
      ? { contact_phone_numbers: record.contact.contact_phone_numbers }
      : {}),
  };
  return {
    record,
    contactId,
    diff,
    unarchive,
    inFlight,
    ...(legacy ? { legacy } : {}),
    ...(Object.keys(data).length > 0 ? { data } : {}),
  };
};

const effectsOf = (work: MemberWork): SyncEffect[] => {
  const { contactId, diff } = work;
  return [
    ...(work.unarchive
      ? [{ contactId, kind: 'unarchived' as const, field: 'is_archived', value: 'true' }]
      : []),
    ...diff.removedEmails.map((value) => ({
      contactId,
      kind: 'removed' as const,
      field: 'contact_emails',
      value,
    })),
    ...diff.removedPhones.map((value) => ({
      contactId,
      kind: 'removed' as const,
      field: 'contact_phone_numbers',
      value,
    })),
    ...diff.cleared.map((c) => ({ contactId, kind: 'cleared' as const, field: c.field, value: c.old })),
  ];
};

/** The fields an input's header can clear: its columns' fields that the service lets be null. */
export const clearableFields = (headerFields: readonly string[] | undefined): ReadonlySet<string> =>
  new Set((headerFields ?? []).filter(isClearable));
