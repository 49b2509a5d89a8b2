/**
 * The one record shape from normalize to the request body: what the normalize
 * stage makes of a row, what the load package stages (serialized once, read once) and what the
 * load stage turns into a write object. Shared by normalize, package, load and run, so it lives
 * on the bottom floor.
 */
import type { ContactWrite } from './schemas/index.js';
import type { Issue } from './types.js';

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
 *
 * It does not carry its source text: a record rejected while it is read has it from the reader,
 * and one that ends rejected or failed later is read back from the staging's side table by
 * `input` and `row` when its rejected file is written (package/staging.ts `sourceOf`).
 */
export interface NormalizedRecord {
  file: string;
  row: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  /** Index of the input in the run's input list (for the rejected file of a failed load). */
  input: number;
  key: string;
  /**
   * Identities of the record's ids in its source product (`source:<pipeline>:<id>`; several when
   * duplicates were merged into it): the ledger keeps them against its contact.
   */
  sources?: string[];
  contact: Omit<ContactWrite, 'groups_contacts' | 'custom_fields'>;
  groups: string[];
  customFields: NamedCustomFieldValue[];
  reminders: NormalizedReminder[];
}

export type RecordOutcome =
  { ok: true; record: NormalizedRecord; issues: Issue[] } | { ok: false; issues: Issue[] };
