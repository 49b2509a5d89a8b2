import type { Issue } from '../core/types.js';
import type { NormalizedRecord } from '../core/record.js';
import { RECORD_LIMITS } from './record-limits.js';
import { formatCount } from '../core/format-count.js';

/** The service's ids are UUIDs: a stand-in of that length sizes a reference exactly. */
const ID = '00000000-0000-0000-0000-000000000000';

/**
 * A row this short cannot make a write object near a request's size: what a record sends comes
 * from its row, and nothing grows a character into more than 32 bytes (JSON escapes take 6, a
 * one-letter group name 51 as a group reference). Longer rows are measured exactly.
 */
const EXPANSION = 32;

/** Bytes of the record's write object as a request carries it, references as UUIDs. */
export const writeBytes = (record: NormalizedRecord): number =>
  Buffer.byteLength(
    JSON.stringify({
      ...record.contact,
      groups_contacts: record.groups.map(() => ({ group_id: ID })),
      custom_fields: record.customFields.map((field) => ({
        id: ID,
        type: field.fieldType,
        text_value: field.value,
      })),
    }),
    'utf8',
  );

/**
 * What a request body of `maxBodyBytes` leaves for one record's write object: less what any body
 * wraps around it (`{"contacts":[...]}`, or an E1 element with its id), rounded up.
 */
export const recordBudget = (maxBodyBytes: number): number => maxBodyBytes - 128;

/**
 * docs/design.md "Request size": a record too large for any request of `maxBodyBytes` is rejected by
 * `run` and `validate` alike. Its size in bytes when it is too large, else undefined.
 * `sourceChars`: the length of the record's source text (its row), which bounds what it can send.
 */
export const oversize = (
  record: NormalizedRecord,
  maxBodyBytes: number,
  sourceChars: number,
): number | undefined => {
  const budget = recordBudget(maxBodyBytes);
  if (sourceChars * EXPANSION <= budget) return undefined;
  const bytes = writeBytes(record);
  return bytes > budget ? bytes : undefined;
};

const n = formatCount;

export const tooLargeIssue = (
  record: Pick<NormalizedRecord, 'file' | 'row' | 'line'>,
  bytes: number,
  maxBodyBytes: number,
): Issue => ({
  file: record.file,
  row: record.row,
  line: record.line,
  severity: 'error',
  stage: 'validate',
  field: '',
  value: `${n(bytes)} bytes`,
  code: 'record_too_large',
  message: `the record is ${n(bytes)} bytes as the service would receive it, more than one request carries (--max-body-bytes ${n(maxBodyBytes)}); it was not loaded`,
});

/** A list of the record longer than one contact keeps (RECORD_LIMITS.listEntries), the longest. */
export const overfullList = (record: NormalizedRecord): { field: string; count: number } | undefined => {
  const lists: [string, number][] = [
    ['custom_fields', record.customFields.length],
    ['groups_contacts', record.groups.length],
    ...Object.entries(record.contact as Record<string, unknown>).flatMap(
      ([field, value]): [string, number][] => {
        // A list, or an operation on one (tags_contacts: {operation, data: [...]}).
        const list = Array.isArray(value) ? value : (value as { data?: unknown } | null)?.data;
        return Array.isArray(list) ? [[field, list.length]] : [];
      },
    ),
  ];
  const [field, count] = lists.reduce((a, b) => (b[1] > a[1] ? b : a));
  return count > RECORD_LIMITS.listEntries ? { field, count } : undefined;
};

/** The one issue for a record with too many entries in a list: said once, with the counts. */
export const tooManyEntriesIssue = (
  record: Pick<NormalizedRecord, 'file' | 'row' | 'line'>,
  list: { field: string; count: number },
): Issue => ({
  file: record.file,
  row: record.row,
  line: record.line,
  severity: 'error',
  stage: 'validate',
  field: list.field,
  value: `${n(list.count)} entries`,
  code: 'too_many_entries',
  message: `${list.field} holds ${n(list.count)} entries; one contact keeps at most ${n(RECORD_LIMITS.listEntries)} and the service refuses more; it was not loaded`,
});
