import type { ChangeRow } from '../load/types.js';
import type { MemberWork } from './members.js';

/**
 * changes.csv rows of a sync run: a removed e-mail or phone (`contact_emails` /
 * `contact_phone_numbers`, old the value, new empty), a cleared field (old the value, new empty),
 * an unarchive (`is_archived` true -> false), each on its record's file and row.
 */
export const changeRowsOf = (work: readonly MemberWork[]): ChangeRow[] =>
  work.flatMap(({ record, contactId, diff, unarchive }) => {
    const at = { file: record.file, row: record.row, contactId };
    return [
      ...(unarchive ? [{ ...at, field: 'is_archived', old: 'true', new: 'false' }] : []),
      ...diff.removedEmails.map((old) => ({ ...at, field: 'contact_emails', old, new: '' })),
      ...diff.removedPhones.map((old) => ({ ...at, field: 'contact_phone_numbers', old, new: '' })),
      ...diff.cleared.map(({ field, old }) => ({ ...at, field, old, new: '' })),
    ];
  });

/** An archive belongs to no record (the person is in no input): file and row stay empty (row 0). */
export const archiveRows = (contactIds: readonly string[]): ChangeRow[] =>
  contactIds.map((contactId) => ({
    file: '',
    row: 0,
    contactId,
    field: 'is_archived',
    old: 'false',
    new: 'true',
  }));
