/** The record shape moved to the bottom floor (core/record.ts); re-exported for older imports. */
export type {
  NamedCustomFieldValue,
  NormalizedRecord,
  NormalizedReminder,
  RecordOutcome,
} from '../core/record.js';
