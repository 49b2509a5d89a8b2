import type { SentValues } from '../state/index.js';
import { emailKey } from './sent-values.js';

/** What a member lost at the source since the last sync run sent it. */
export interface MemberDiff {
  removedEmails: string[];
  removedPhones: string[];
  /** Fields emptied at the source (their column in the header), with the value they held. */
  cleared: { field: string; old: string }[];
}

/**
 * `before`: what the scope last sent; `now`: what the source says today. Only fields in `clearable`
 * (the input's header has their column and the service accepts null) are cleared when empty now.
 */
export const diffSent = (before: SentValues, now: SentValues, clearable: ReadonlySet<string>): MemberDiff => {
  const emailsNow = new Set(now.emails.map(emailKey));
  const phonesNow = new Set(now.phones.map((p) => p.phone_number));
  return {
    removedEmails: before.emails.filter((e) => !emailsNow.has(emailKey(e))),
    removedPhones: before.phones.map((p) => p.phone_number).filter((p) => !phonesNow.has(p)),
    cleared: Object.entries(before.fields)
      .filter(([field]) => clearable.has(field) && now.fields[field] === undefined)
      .map(([field, old]) => ({ field, old })),
  };
};

export const isEmptyDiff = (diff: MemberDiff): boolean =>
  diff.removedEmails.length === 0 && diff.removedPhones.length === 0 && diff.cleared.length === 0;
