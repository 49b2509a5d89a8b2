import type { UpdateEffect } from '../state/index.js';
import type { ChangeRow } from './types.js';
import { changeRows, fieldChanges, listRows, type FieldChanges } from './field-changes.js';
import type { Planned } from './resolve.js';

/** Where the load stage hands the field-level changes of its updates (changes.csv, report.html). */
export interface ChangeSink {
  add(rows: readonly ChangeRow[]): void;
}

/**
 * What the journal keeps of an update (run-effects.ts): the before-image and the values written
 * (null before-image when no answer showed the contact), what no answer shows, and how an undo
 * finds the contact again.
 */
export interface UpdateDetail extends Omit<FieldChanges, 'before'> {
  before: FieldChanges['before'] | null;
  /** An address the contact has (the one it was found by, else the record's first). */
  email?: string;
  fullName?: string;
}

/** The update's field changes, when the service showed the contact (a search answer). */
export const previewUpdate = (planned: Planned): FieldChanges | undefined =>
  planned.current
    ? fieldChanges(planned.current, planned.write, planned.matchedEmail, planned.known)
    : undefined;

/** The changed scalar fields, then the list entries the update adds (a new e-mail, phone, group). */
export const previewRows = (planned: Planned, changes: FieldChanges): ChangeRow[] => {
  const place = { file: planned.record.file, row: planned.record.row, contactId: planned.contactId ?? '' };
  return [...changeRows(place, changes.before, changes.after), ...listRows(place, changes.lists)];
};

export const updateEffect = (planned: Planned, changes: FieldChanges | undefined): UpdateEffect => {
  const email = planned.matchedEmail ?? planned.write.contact_emails?.[0]?.email;
  const fullName = planned.current?.full_name ?? planned.write.full_name ?? undefined;
  const detail: UpdateDetail = {
    ...(changes ?? fieldChanges(emptyContact, planned.write, planned.matchedEmail)),
    ...(changes ? {} : { before: null }),
    ...(email ? { email } : {}),
    ...(fullName ? { fullName } : {}),
  };
  return {
    contactId: planned.contactId!,
    key: planned.record.key,
    file: planned.record.file,
    row: planned.record.row,
    detail,
  };
};

/** Compared with nothing, every written field is a change: what an unseen contact's update writes. */
const emptyContact = {} as NonNullable<Planned['current']>;
