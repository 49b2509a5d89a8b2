import type {
  DraftContact,
  DraftCustomField,
  DraftEmail,
  DraftReminder,
  Issue,
  Sourced,
  SourceRow,
} from '../pipeline/types.js';
import { Cells } from './cells.js';
import { alternatives, matchColumn, withNumber, type ColumnMatch } from './columns.js';
import { checkHeader } from './header-check.js';
import type { Pipeline } from './pipeline.js';
import type {
  ColumnRef,
  ContactPointSource,
  CustomFieldSource,
  GroupSource,
  ReminderSource,
} from './schema.js';

/**
 * Sorts one source row's values into contact concepts (a DraftContact), as the pipeline says.
 * Values stay raw: the normalize stage trims, lowercases and parses them.
 */
export interface RowMapper {
  /** Mapped columns missing from the CSV header (row 0); empty for JSON. */
  headerIssues: Issue[];
  map(row: SourceRow): DraftContact;
}

type Values = Record<string, unknown>;

const NAME_PARTS = ['full', 'first', 'middle', 'last', 'prefix', 'suffix', 'nickname'] as const;

export const createRowMapper = (
  pipeline: Pipeline,
  header: string[] | undefined,
  file: string,
): RowMapper => {
  const { spec } = pipeline;
  const cells = new Cells(pipeline.emptyValues);
  const headerMatches = new Map<string, ColumnMatch[]>();

  /** The columns `column` names in this row: from the header (cached) or the JSON object's keys. */
  const columnsOf = (column: string, values: Values): ColumnMatch[] => {
    if (header === undefined) return matchColumn(column, Object.keys(values));
    let found = headerMatches.get(column);
    if (found === undefined) headerMatches.set(column, (found = matchColumn(column, header)));
    return found;
  };

  /** The first alternative with a present value. */
  const first = (ref: ColumnRef | undefined, values: Values, n?: string): Sourced<unknown> | undefined => {
    for (const alternative of alternatives(ref)) {
      const column = withNumber(alternative, n);
      const value = values[column];
      if (cells.present(value)) return { value, field: column };
    }
    return undefined;
  };

  const firstText = (ref: ColumnRef | undefined, values: Values, n?: string): Sourced | undefined => {
    const found = first(ref, values, n);
    const text = found && cells.text(found.value);
    return found && text !== undefined ? { value: text, field: found.field } : undefined;
  };

  const separatorOf = (own: string | false | undefined): string | false | undefined =>
    own === undefined ? pipeline.multiValueSeparator : own;

  const contactPoints = (
    entries: ContactPointSource[],
    values: Values,
    defaultValueKey: string,
  ): DraftEmail[] => {
    const out: DraftEmail[] = [];
    for (const entry of entries) {
      for (const { column, n } of columnsOf(entry.column, values)) {
        const label = firstText(entry.label_column, values, n)?.value ?? entry.label;
        const exploded = cells.explode(values[column], column, {
          separator: separatorOf(entry.separator),
          valueKey: entry.value_key ?? defaultValueKey,
          labelKey: entry.label_key ?? 'label',
        });
        for (const item of exploded) {
          const point: DraftEmail = { value: item.value, field: item.field };
          const itemLabel = item.label ?? label;
          if (itemLabel !== undefined) point.label = itemLabel;
          out.push(point);
        }
      }
    }
    return out;
  };

  const groups = (entries: GroupSource[], values: Values, draft: DraftContact): void => {
    for (const entry of entries) {
      const drop = new Set(entry.drop.map((label) => label.trim().toLowerCase()));
      const starred = entry.starred?.trim().toLowerCase();
      for (const alternative of alternatives(entry.column)) {
        for (const { column } of columnsOf(alternative, values)) {
          for (const item of cells.explode(values[column], column, {
            separator: separatorOf(entry.separator),
          })) {
            const label = item.value.trim();
            const folded = label.toLowerCase();
            if (folded === starred) draft.fields.starred = { value: true, field: item.field };
            else if (!drop.has(folded)) {
              const name =
                entry.strip_prefix && label.startsWith(entry.strip_prefix)
                  ? label.slice(entry.strip_prefix.length).trim()
                  : label;
              if (name !== '') draft.groups.push({ value: name, field: item.field });
            }
          }
        }
      }
    }
  };

  const customField = (
    entry: CustomFieldSource,
    name: string,
    value: string,
    field: string,
  ): DraftCustomField => {
    const out: DraftCustomField = { name, value, field, fieldType: entry.field_type };
    if (entry.categories !== undefined) out.categories = entry.categories;
    if (entry.date_format !== undefined) out.dateFormat = entry.date_format;
    return out;
  };

  const customFields = (entries: CustomFieldSource[], values: Values): DraftCustomField[] => {
    const out: DraftCustomField[] = [];
    for (const entry of entries) {
      if (entry.column !== undefined) {
        const found = firstText(entry.column, values);
        const name = entry.name ?? alternatives(entry.column)[0]!;
        if (found) out.push(customField(entry, name, found.value, found.field));
      } else if (entry.column_prefix !== undefined) {
        const prefix = entry.column_prefix;
        for (const column of header ?? Object.keys(values)) {
          if (!column.startsWith(prefix) || column.length === prefix.length) continue;
          const text = cells.text(values[column]);
          if (text !== undefined) out.push(customField(entry, column.slice(prefix.length), text, column));
        }
      } else if (entry.from_object !== undefined) {
        const object = values[entry.from_object];
        if (typeof object !== 'object' || object === null || Array.isArray(object)) continue;
        for (const [name, raw] of Object.entries(object as Values)) {
          const text = cells.text(raw);
          if (text !== undefined) out.push(customField(entry, name, text, `${entry.from_object}.${name}`));
        }
      }
    }
    return out;
  };

  const reminder = (entry: ReminderSource, values: Values, prefix: string): DraftReminder | undefined => {
    const text = firstText(entry.text, values);
    if (text === undefined) return undefined;
    const out: DraftReminder = { text: { ...text, field: prefix + text.field } };
    const due = firstText(entry.due, values);
    if (due) out.due = { ...due, field: prefix + due.field };
    const recurrence = firstText(entry.recurrence, values);
    if (recurrence) out.recurrence = { ...recurrence, field: prefix + recurrence.field };
    if (entry.date_format !== undefined) out.dateFormat = entry.date_format;
    return out;
  };

  const reminders = (entries: ReminderSource[], values: Values): DraftReminder[] => {
    const out: DraftReminder[] = [];
    for (const entry of entries) {
      if (entry.list === undefined) {
        const built = reminder(entry, values, '');
        if (built) out.push(built);
        continue;
      }
      const list = values[entry.list];
      if (!Array.isArray(list)) continue;
      list.forEach((element, i) => {
        if (typeof element !== 'object' || element === null) return;
        const built = reminder(entry, element as Values, `${entry.list}[${i}].`);
        if (built) out.push(built);
      });
    }
    return out;
  };

  const map = (row: SourceRow): DraftContact => {
    const values = row.values;
    const draft: DraftContact = {
      name: {},
      emails: [],
      phones: [],
      fields: {},
      groups: [],
      customFields: [],
      reminders: [],
    };
    for (const part of NAME_PARTS) {
      const found = firstText(spec.name_parts[part], values);
      if (found) draft.name[part] = found;
    }
    for (const [field, ref] of Object.entries(spec.fields)) {
      const found = first(ref, values);
      if (found) draft.fields[field] = found;
    }
    draft.emails = contactPoints(spec.emails, values, 'email');
    draft.phones = contactPoints(spec.phones, values, 'phone_number');
    groups(spec.groups, values, draft);
    draft.customFields = customFields(spec.custom_fields, values);
    draft.reminders = reminders(spec.reminders, values);
    if (pipeline.key) {
      const key = pipeline.key.map((column) => cells.text(values[column]) ?? '');
      if (key.some((part) => part !== '')) draft.key = key;
    }
    return draft;
  };

  return { headerIssues: header === undefined ? [] : checkHeader(pipeline, header, file), map };
};
