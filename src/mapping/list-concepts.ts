import type { DraftContact, DraftCustomField, DraftEmail, DraftReminder } from './types.js';
import type { Cells, CellValue, ExplodeOptions } from './cells.js';
import type { ColumnLookup, Values } from './column-lookup.js';
import { alternatives } from './columns.js';
import type { ContactPointSource, CustomFieldSource, GroupSource, ReminderSource } from './schema.js';

/**
 * The concepts a row may hold several of (e-mails, phones, groups, custom fields, reminders),
 * read out of one row's values as a pipeline's entries say. Values stay raw, as the row mapper's.
 * A row's cells are read by cell-mapping.ts, with the per-entry rules shared from here.
 */

export interface GroupRule {
  drop: Set<string>;
  starred: string | undefined;
}

/** What the readers below share across the rows of one input: the lookup and per-entry rules. */
export interface ListConceptContext {
  readonly lookup: ColumnLookup;
  /** The pipeline's separator, for entries that do not name their own. */
  readonly multiValueSeparator: string | undefined;
  readonly explodeOptions: Map<ContactPointSource, ExplodeOptions>;
  readonly groupRules: Map<GroupSource, GroupRule>;
}

export const listConceptContext = (
  lookup: ColumnLookup,
  multiValueSeparator: string | undefined,
): ListConceptContext => ({ lookup, multiValueSeparator, explodeOptions: new Map(), groupRules: new Map() });

export const separatorOf = (
  ctx: ListConceptContext,
  own: string | false | undefined,
): string | false | undefined => (own === undefined ? ctx.multiValueSeparator : own);

export const explodeOptionsOf = (
  ctx: ListConceptContext,
  entry: ContactPointSource,
  defaultValueKey: string,
): ExplodeOptions => {
  let options = ctx.explodeOptions.get(entry);
  if (options === undefined) {
    options = {
      separator: separatorOf(ctx, entry.separator),
      valueKey: entry.value_key ?? defaultValueKey,
      labelKey: entry.label_key ?? 'label',
    };
    ctx.explodeOptions.set(entry, options);
  }
  return options;
};

/** E-mails or phones: every value of every entry's columns, each with its label. */
export const contactPoints = (
  ctx: ListConceptContext,
  entries: ContactPointSource[],
  values: Values,
  defaultValueKey: string,
): DraftEmail[] => {
  const { lookup } = ctx;
  const out: DraftEmail[] = [];
  for (const entry of entries) {
    const options = explodeOptionsOf(ctx, entry, defaultValueKey);
    for (const { column, n } of lookup.columnsOf(entry.column, values)) {
      const label = lookup.firstText(entry.label_column, values, n)?.value ?? entry.label;
      pushPoints(out, lookup.cells.explode(values[column], column, options), label);
    }
  }
  return out;
};

/** A column's exploded values as contact points, each with its own label or else the column's. */
export const pushPoints = (
  out: DraftEmail[],
  exploded: ReturnType<Cells['explode']>,
  columnLabel: string | undefined,
): void => {
  for (const item of exploded) {
    const point: DraftEmail = { value: item.value, field: item.field };
    const label = item.label ?? columnLabel;
    if (label !== undefined) point.label = label;
    out.push(point);
  }
};

export const groupRuleOf = (ctx: ListConceptContext, entry: GroupSource): GroupRule => {
  let rule = ctx.groupRules.get(entry);
  if (rule === undefined) {
    rule = {
      drop: new Set(entry.drop.map((label) => label.trim().toLowerCase())),
      starred: entry.starred?.trim().toLowerCase(),
    };
    ctx.groupRules.set(entry, rule);
  }
  return rule;
};

/** Group names into `draft.groups`; the entry's starred label sets `starred` instead. */
export const groups = (
  ctx: ListConceptContext,
  entries: GroupSource[],
  values: Values,
  draft: DraftContact,
): void => {
  const { lookup } = ctx;
  for (const entry of entries) {
    const rule = groupRuleOf(ctx, entry);
    for (const alternative of alternatives(entry.column)) {
      for (const { column } of lookup.columnsOf(alternative, values)) {
        const items = lookup.cells.explode(values[column], column, {
          separator: separatorOf(ctx, entry.separator),
        });
        addGroupLabels(entry, rule, items, draft);
      }
    }
  }
};

/** The labels of one group cell into `draft.groups`; the entry's starred label sets `starred` instead. */
export const addGroupLabels = (
  entry: GroupSource,
  { drop, starred }: GroupRule,
  items: readonly CellValue[],
  draft: DraftContact,
): void => {
  for (const item of items) {
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
};

export const customField = (
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

/** Custom fields from one column, from the columns under a prefix, or from a JSON object's keys. */
export const customFields = (
  ctx: ListConceptContext,
  entries: CustomFieldSource[],
  values: Values,
): DraftCustomField[] => {
  const { lookup } = ctx;
  const { cells } = lookup;
  const out: DraftCustomField[] = [];
  for (const entry of entries) {
    if (entry.column !== undefined) {
      const found = lookup.firstText(entry.column, values);
      const name = entry.name ?? alternatives(entry.column)[0]!;
      if (found) out.push(customField(entry, name, found.value, found.field));
    } else if (entry.column_prefix !== undefined) {
      const prefix = entry.column_prefix;
      for (const column of lookup.prefixedColumns(prefix, values)) {
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

const reminder = (
  lookup: ColumnLookup,
  entry: ReminderSource,
  values: Values,
  prefix: string,
): DraftReminder | undefined => {
  const rowLevel = prefix === '';
  const text = lookup.firstText(entry.text, values, undefined, rowLevel);
  if (text === undefined) return undefined;
  const out: DraftReminder = { text: { ...text, field: prefix + text.field } };
  const due = lookup.firstText(entry.due, values, undefined, rowLevel);
  if (due) out.due = { ...due, field: prefix + due.field };
  const recurrence = lookup.firstText(entry.recurrence, values, undefined, rowLevel);
  if (recurrence) out.recurrence = { ...recurrence, field: prefix + recurrence.field };
  if (entry.date_format !== undefined) out.dateFormat = entry.date_format;
  return out;
};

/** Reminders from the row's own columns, or one per element of a JSON list. */
export const reminders = (
  ctx: ListConceptContext,
  entries: ReminderSource[],
  values: Values,
): DraftReminder[] => {
  const { lookup } = ctx;
  const out: DraftReminder[] = [];
  for (const entry of entries) {
    if (entry.list === undefined) {
      const built = reminder(lookup, entry, values, '');
      if (built) out.push(built);
      continue;
    }
    const list = values[entry.list];
    if (!Array.isArray(list)) continue;
    list.forEach((element, i) => {
      if (typeof element !== 'object' || element === null) return;
      const built = reminder(lookup, entry, element as Values, `${entry.list}[${i}].`);
      if (built) out.push(built);
    });
  }
  return out;
};
