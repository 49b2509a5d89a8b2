/** What the mapping stage makes of a row: column values sorted into contact concepts (the normalizer's input). */

/** A value taken from a column, with the column's name kept for issue rows. */
export interface Sourced<T = string> {
  value: T;
  /** The source column (or JSON key) the value came from. */
  field: string;
}

export interface DraftEmail extends Sourced {
  label?: string;
}

export interface DraftPhone extends Sourced {
  label?: string;
}

export interface DraftCustomField extends Sourced {
  /** The custom field definition's name on the service. */
  name: string;
  fieldType: 'input' | 'autocomplete' | 'datepicker';
  /** Options for `autocomplete` definitions. */
  categories?: string[];
  /** The pipeline's date format for this `datepicker` field's values, when it declares one. */
  dateFormat?: string;
}

export interface DraftReminder {
  text: Sourced;
  due?: Sourced;
  recurrence?: Sourced;
  /** The pipeline's date format for `due`, when its reminders section declares one. */
  dateFormat?: string;
}

/** What the mapping stage makes of one row: raw column values sorted into contact concepts. */
export interface DraftContact {
  name: {
    full?: Sourced;
    first?: Sourced;
    middle?: Sourced;
    last?: Sourced;
    prefix?: Sourced;
    suffix?: Sourced;
    nickname?: Sourced;
  };
  emails: DraftEmail[];
  phones: DraftPhone[];
  /** Other contact write fields by their write name (job_title, website, birthday, worknet, ...). */
  fields: Record<string, Sourced<unknown>>;
  /** Group names (system labels already dropped). */
  groups: Sourced[];
  customFields: DraftCustomField[];
  reminders: DraftReminder[];
  /** Values of the pipeline's `key` columns, when it declares them. */
  key?: string[];
  /** The record's id in its source product (`source_id`), as `<pipeline>:<id>`. */
  sourceId?: string;
}
