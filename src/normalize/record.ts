import type { ContactWrite } from '../core/schemas/index.js';
import type { Issue } from '../core/types.js';

/** A custom field value by definition name; ids are resolved at load time. */
export interface NamedCustomFieldValue {
  name: string;
  value: string;
  fieldType: 'input' | 'autocomplete' | 'datepicker';
  categories?: string[];
}

export interface NormalizedReminder {
  text: string;
  due_at_date: string;
  recurrence?: string;
}

/**
 * A record ready to load: the contact write object without references, plus the references by
 * name (groups, custom fields) that the load stage turns into ids, and where it came from.
 */
export interface NormalizedRecord {
  file: string;
  row: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  raw: string;
  /** Index of the input in the run's input list (for the rejected file of a failed load). */
  input: number;
  key: string;
  contact: Omit<ContactWrite, 'groups_contacts' | 'custom_fields'>;
  groups: string[];
  customFields: NamedCustomFieldValue[];
  reminders: NormalizedReminder[];
}

export type RecordOutcome =
  { ok: true; record: NormalizedRecord; issues: Issue[] } | { ok: false; issues: Issue[] };
