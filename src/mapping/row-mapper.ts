import type {
  DraftContact,
  DraftCustomField,
  DraftEmail,
  DraftReminder,
  Issue,
  Sourced,
  SourceRow,
} from '../core/types.js';
import { Cells, type ExplodeOptions } from './cells.js';
import { isRejectColumn } from '../core/reject-columns.js';
import { alternatives, ColumnIndex, withNumber, type ColumnMatch } from './columns.js';
import { checkHeader } from './header-check.js';
import type { Pipeline } from './pipeline.js';
import {
  LIST_FIELDS,
  type ColumnRef,
  type ContactPointSource,
  type CustomFieldSource,
  type GroupSource,
  type ReminderSource,
} from './schema.js';

/**
 * Sorts one source row's values into contact concepts (a DraftContact), as the pipeline says.
 * Values stay raw: the normalize stage trims, lowercases and parses them.
 */
export interface RowMapper {
  /** Mapped columns missing from the CSV header (row 0); empty for JSON. */
  headerIssues: Issue[];
  /** Reads only the row's values: a normalize worker gets no more of a row (run/parallel/protocol.ts). */
  map(row: MappedRow): DraftContact;
}

type Values = Record<string, unknown>;

/** A source row, or the part of it a normalize worker gets: its values are all a mapper reads. */
export type MappedRow = Pick<SourceRow, 'values'> & Partial<SourceRow>;

/** A JSON object's keys that a pipeline may map. */
const keysOf = (values: Values): string[] => Object.keys(values).filter((key) => !isRejectColumn(key));

const NAME_PARTS = ['full', 'first', 'middle', 'last', 'prefix', 'suffix', 'nickname'] as const;

/**
 * Maps rows of one input. `header` (CSV/TSV) is matched once; the columns a run adds to rejected
 * files (import_row, import_error) are never mapped, so a fixed rejected file runs as it is.
 * `headerLine` is the line file-level issues point at.
 */
export const createRowMapper = (
  pipeline: Pipeline,
  fullHeader: string[] | undefined,
  file: string,
  headerLine = 0,
): RowMapper => {
  const { spec } = pipeline;
  const header = fullHeader?.filter((name) => !isRejectColumn(name));
  const cells = new Cells(pipeline.emptyValues);
  const headerMatches = new Map<string, ColumnMatch[]>();
  // A CSV row holds exactly the header's columns: a reference's alternatives are resolved to
  // those once per header, so a row is mapped by direct key without searching. Names are found
  // as detection compares them (relaxed: case, spaces, underscores), through one ColumnIndex.
  const headerIndex = header === undefined ? undefined : new ColumnIndex(header);
  const resolved = new Map<ColumnRef, Map<string | undefined, string[]>>();

  // Without a header (JSON, vCard), the index of the row's keys, reused while rows keep one shape.
  let lastValues: Values | undefined;
  let lastKeys: string[] = [];
  let lastIndex = new ColumnIndex([]);
  const keyIndex = (values: Values): ColumnIndex => {
    if (values === lastValues) return lastIndex;
    lastValues = values;
    const keys = keysOf(values);
    if (keys.length !== lastKeys.length || keys.some((key, i) => key !== lastKeys[i])) {
      lastKeys = keys;
      lastIndex = new ColumnIndex(keys);
    }
    return lastIndex;
  };

  /** The columns `column` names in this row: from the header (cached) or the JSON object's keys. */
  const columnsOf = (column: string, values: Values): ColumnMatch[] => {
    if (headerIndex === undefined) return keyIndex(values).match(column);
    let found = headerMatches.get(column);
    if (found === undefined) headerMatches.set(column, (found = headerIndex.match(column)));
    return found;
  };

  /** A reference's alternatives with the family number in, narrowed to the header; cached. */
  const columnsFor = (ref: ColumnRef, n: string | undefined, rowLevel: boolean): string[] => {
    let byNumber = resolved.get(ref);
    if (byNumber === undefined) resolved.set(ref, (byNumber = new Map()));
    let columns = byNumber.get(n);
    if (columns === undefined) {
      columns = alternatives(ref).map((alternative) => withNumber(alternative, n));
      byNumber.set(n, columns);
    }
    return rowLevel && headerIndex !== undefined ? narrowed(columns, headerIndex) : columns;
  };
  const inHeaderColumns = new Map<string[], string[]>();
  /** The header's names of `columns`, absent ones left out, each once. */
  const narrowed = (columns: string[], index: ColumnIndex): string[] => {
    let found = inHeaderColumns.get(columns);
    if (found === undefined) {
      const names = columns.flatMap((column) => index.resolve(column) ?? []);
      inHeaderColumns.set(columns, (found = [...new Set(names)]));
    }
    return found;
  };

  /** The first alternative with a present value. `rowLevel` is false for a JSON list element. */
  const first = (
    ref: ColumnRef | undefined,
    values: Values,
    n?: string,
    rowLevel = true,
  ): Sourced<unknown> | undefined => {
    if (ref === undefined) return undefined;
    const keys = rowLevel && headerIndex === undefined ? keyIndex(values) : undefined;
    for (const wanted of columnsFor(ref, n, rowLevel)) {
      const column = keys ? (keys.resolve(wanted) ?? wanted) : wanted;
      const value = values[column];
      if (cells.present(value)) return { value, field: column };
    }
    return undefined;
  };

  const firstText = (
    ref: ColumnRef | undefined,
    values: Values,
    n?: string,
    rowLevel = true,
  ): Sourced | undefined => {
    const found = first(ref, values, n, rowLevel);
    const text = found && cells.text(found.value);
    return found && text !== undefined ? { value: text, field: found.field } : undefined;
  };

  const separatorOf = (own: string | false | undefined): string | false | undefined =>
    own === undefined ? pipeline.multiValueSeparator : own;

  const explodeOptions = new Map<ContactPointSource, ExplodeOptions>();
  const contactPoints = (
    entries: ContactPointSource[],
    values: Values,
    defaultValueKey: string,
  ): DraftEmail[] => {
    const out: DraftEmail[] = [];
    for (const entry of entries) {
      let options = explodeOptions.get(entry);
      if (options === undefined) {
        options = {
          separator: separatorOf(entry.separator),
          valueKey: entry.value_key ?? defaultValueKey,
          labelKey: entry.label_key ?? 'label',
        };
        explodeOptions.set(entry, options);
      }
      for (const { column, n } of columnsOf(entry.column, values)) {
        const label = firstText(entry.label_column, values, n)?.value ?? entry.label;
        const exploded = cells.explode(values[column], column, options);
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

  const groupRules = new Map<GroupSource, { drop: Set<string>; starred: string | undefined }>();
  const groups = (entries: GroupSource[], values: Values, draft: DraftContact): void => {
    for (const entry of entries) {
      let rule = groupRules.get(entry);
      if (rule === undefined) {
        rule = {
          drop: new Set(entry.drop.map((label) => label.trim().toLowerCase())),
          starred: entry.starred?.trim().toLowerCase(),
        };
        groupRules.set(entry, rule);
      }
      const { drop, starred } = rule;
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

  const byPrefix = new Map<string, string[]>();
  /** The columns under a prefix (not the bare prefix), in column order; once per header. */
  const prefixedColumns = (prefix: string, values: Values): string[] => {
    const pick = (columns: string[]) =>
      columns.filter((column) => column.startsWith(prefix) && column.length > prefix.length);
    if (header === undefined) return pick(keysOf(values));
    let found = byPrefix.get(prefix);
    if (found === undefined) byPrefix.set(prefix, (found = pick(header)));
    return found;
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
        for (const column of prefixedColumns(prefix, values)) {
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
    const rowLevel = prefix === '';
    const text = firstText(entry.text, values, undefined, rowLevel);
    if (text === undefined) return undefined;
    const out: DraftReminder = { text: { ...text, field: prefix + text.field } };
    const due = firstText(entry.due, values, undefined, rowLevel);
    if (due) out.due = { ...due, field: prefix + due.field };
    const recurrence = firstText(entry.recurrence, values, undefined, rowLevel);
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

  /** Every present value of every alternative (families expanded), for a list field. */
  const allValues = (ref: ColumnRef, values: Values): Sourced<unknown> | undefined => {
    const found: unknown[] = [];
    let field: string | undefined;
    for (const alternative of alternatives(ref)) {
      for (const { column } of columnsOf(alternative, values)) {
        if (!cells.present(values[column])) continue;
        found.push(values[column]);
        field ??= column;
      }
    }
    return field === undefined ? undefined : { value: found, field };
  };

  // With a header, the parts and fields whose columns are all absent are left out once, not per row.
  const mapped = (ref: ColumnRef | undefined): boolean =>
    ref !== undefined && columnsFor(ref, undefined, true).length > 0;
  const mappedList = (ref: ColumnRef | undefined): boolean =>
    ref !== undefined && (header === undefined || alternatives(ref).some((a) => columnsOf(a, {}).length > 0));
  const nameParts = NAME_PARTS.filter((part) => mapped(spec.name_parts[part]));
  const fieldRefs = Object.entries(spec.fields).filter(([field, ref]) =>
    LIST_FIELDS.has(field) ? mappedList(ref) : mapped(ref),
  );

  const map = (row: MappedRow): DraftContact => {
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
    for (const part of nameParts) {
      const found = firstText(spec.name_parts[part], values);
      if (found) draft.name[part] = found;
    }
    for (const [field, ref] of fieldRefs) {
      const found = LIST_FIELDS.has(field) ? allValues(ref!, values) : first(ref, values);
      if (found) draft.fields[field] = found;
    }
    draft.emails = contactPoints(spec.emails, values, 'email');
    draft.phones = contactPoints(spec.phones, values, 'phone_number');
    groups(spec.groups, values, draft);
    draft.customFields = customFields(spec.custom_fields, values);
    draft.reminders = reminders(spec.reminders, values);
    if (pipeline.key) {
      const index = headerIndex ?? keyIndex(values);
      const key = pipeline.key.map((column) => cells.text(values[index.resolve(column) ?? column]) ?? '');
      if (key.some((part) => part !== '')) draft.key = key;
    }
    return draft;
  };

  return { headerIssues: header === undefined ? [] : checkHeader(pipeline, header, file, headerLine), map };
};
