import type { DraftContact, DraftCustomField, DraftEmail, DraftReminder, Sourced } from './types.js';
import type { Cells, ExplodeOptions } from './cells.js';
import type { ColumnLookup } from './column-lookup.js';
import { alternatives } from './columns.js';
import { emptyDraft } from './empty-draft.js';
import {
  addGroupLabels,
  customField,
  explodeOptionsOf,
  groupRuleOf,
  pushPoints,
  separatorOf,
  type GroupRule,
  type ListConceptContext,
} from './list-concepts.js';
import { removeFormulaGuard } from '../core/spreadsheet-safety.js';
import type { Pipeline } from './pipeline.js';
import { LIST_FIELDS, NAME_PARTS, type NamePart } from './field-names.js';
import type { ColumnRef, CustomFieldSource, GroupSource } from './schema.js';

/**
 * The mapping of an input with a header, compiled once per header into cell positions: every
 * column a pipeline names (name parts, fields, e-mails and phones with their numbered columns,
 * groups, custom fields, reminders, key, source id) is resolved to the header's column and its
 * index, so a row is mapped straight from its cells, with no object keyed by name built per row.
 * The same rules as the keyed path (row-mapper.ts, list-concepts.ts): the header names come from
 * the same ColumnLookup, values are read with the same Cells.
 */

/** A header column a reference resolved to: where its cell is, and its name for the draft's `field`. */
interface Slot {
  readonly index: number;
  readonly column: string;
}

interface PointColumn {
  readonly slot: Slot;
  /** The entry's label columns with this column's family number in. */
  readonly labels: readonly Slot[];
  readonly label: string | undefined;
  readonly options: ExplodeOptions;
}

interface GroupColumns {
  readonly entry: GroupSource;
  readonly rule: GroupRule;
  readonly options: ExplodeOptions;
  readonly slots: readonly Slot[];
}

type CustomColumns =
  | { readonly entry: CustomFieldSource; readonly name: string; readonly slots: readonly Slot[] }
  | { readonly entry: CustomFieldSource; readonly prefixed: readonly { slot: Slot; name: string }[] };

interface ReminderColumns {
  readonly text: readonly Slot[];
  readonly due: readonly Slot[];
  readonly recurrence: readonly Slot[];
  readonly dateFormat: string | undefined;
}

export interface CellMapping {
  readonly cells: Cells;
  readonly pipelineName: string;
  readonly nameParts: readonly (readonly [NamePart, readonly Slot[]])[];
  readonly fields: readonly { field: string; slots: readonly Slot[]; list: boolean }[];
  readonly emails: readonly PointColumn[];
  readonly phones: readonly PointColumn[];
  readonly groups: readonly GroupColumns[];
  readonly customFields: readonly CustomColumns[];
  readonly reminders: readonly ReminderColumns[];
  /** The cell of each key column; -1 for a column the header lacks (its part is ''). */
  readonly key: readonly number[] | undefined;
  readonly sourceId: readonly Slot[];
}

/**
 * Where each header name's cell is. A name held twice reads its last cell, as a keyed row kept
 * it. Names of our rejected files are unguarded in the order a keyed row's keys were, so the
 * later of two names that unguard alike wins, as it did there.
 */
const cellIndexOf = (header: readonly string[], ours: boolean): Map<string, number> => {
  const last = new Map<string, number>();
  header.forEach((name, index) => last.set(name, index));
  if (!ours) return last;
  const unguarded = new Map<string, number>();
  for (const [name, index] of last) unguarded.set(removeFormulaGuard(name), index);
  return unguarded;
};

/**
 * Compiles a pipeline against one header. `lookup` and `lists` are the keyed path's, built on the
 * header without the rejected files' columns; `fullHeader` is the header as the cells come, and
 * `ours` says it is one of our rejected files (names unguarded).
 */
export const compileCellMapping = (
  pipeline: Pipeline,
  lookup: ColumnLookup,
  lists: ListConceptContext,
  fullHeader: readonly string[],
  ours: boolean,
): CellMapping => {
  const { spec } = pipeline;
  const cellIndex = cellIndexOf(fullHeader, ours);
  const slotOf = (column: string): Slot => ({ column, index: cellIndex.get(column) ?? -1 });
  /** A reference's alternatives in the header, as `ColumnLookup.first` tries them. */
  const firstOf = (ref: ColumnRef | undefined, n?: string): Slot[] =>
    ref === undefined ? [] : lookup.columnsFor(ref, n, true).map(slotOf);
  /** Every header column an alternative matches, numbered families expanded in number order. */
  const matchesOf = (ref: ColumnRef | undefined): Slot[] =>
    alternatives(ref).flatMap((alternative) =>
      lookup.columnsOf(alternative, {}).map((m) => slotOf(m.column)),
    );
  const points = (entries: Pipeline['spec']['emails'], defaultValueKey: string): PointColumn[] =>
    entries.flatMap((entry) => {
      const options = explodeOptionsOf(lists, entry, defaultValueKey);
      return lookup.columnsOf(entry.column, {}).map(({ column, n }) => ({
        slot: slotOf(column),
        labels: firstOf(entry.label_column, n),
        label: entry.label,
        options,
      }));
    });
  return {
    cells: lookup.cells,
    pipelineName: pipeline.name,
    nameParts: NAME_PARTS.map((part) => [part, firstOf(spec.name_parts[part])] as const).filter(
      ([, slots]) => slots.length > 0,
    ),
    fields: Object.entries(spec.fields)
      .map(([field, ref]) => {
        const list = LIST_FIELDS.has(field);
        return { field, list, slots: list ? matchesOf(ref) : firstOf(ref) };
      })
      .filter(({ slots }) => slots.length > 0),
    emails: points(spec.emails, 'email'),
    phones: points(spec.phones, 'phone_number'),
    groups: spec.groups.map((entry) => ({
      entry,
      rule: groupRuleOf(lists, entry),
      options: { separator: separatorOf(lists, entry.separator) },
      slots: matchesOf(entry.column),
    })),
    // A cell is text: an entry that reads an object (`from_object`) finds none in a header's row.
    customFields: spec.custom_fields.flatMap((entry): CustomColumns[] => {
      if (entry.column !== undefined)
        return [{ entry, name: entry.name ?? alternatives(entry.column)[0]!, slots: firstOf(entry.column) }];
      const prefix = entry.column_prefix;
      if (prefix === undefined) return [];
      const columns = lookup.prefixedColumns(prefix, {});
      return [
        {
          entry,
          prefixed: columns.map((column) => ({ slot: slotOf(column), name: column.slice(prefix.length) })),
        },
      ];
    }),
    // Nor a list: reminders read from one (`list`) find none either.
    reminders: spec.reminders
      .filter((entry) => entry.list === undefined)
      .map((entry) => ({
        text: firstOf(entry.text),
        due: firstOf(entry.due),
        recurrence: firstOf(entry.recurrence),
        dateFormat: entry.date_format,
      })),
    key: pipeline.key?.map((column) => cellIndex.get(lookup.headerIndex?.resolve(column) ?? column) ?? -1),
    sourceId: firstOf(spec.source_id),
  };
};

/** The first slot whose cell is present, as text (a cell is text already). */
const firstPresent = (cells: Cells, row: readonly string[], slots: readonly Slot[]): Sourced | undefined => {
  for (const { index, column } of slots) {
    const value = row[index];
    if (cells.present(value)) return { value: value!, field: column };
  }
  return undefined;
};

const contactPoints = (mapping: CellMapping, row: readonly string[], columns: readonly PointColumn[]) => {
  const { cells } = mapping;
  const out: DraftEmail[] = [];
  for (const { slot, labels, label, options } of columns) {
    const exploded = cells.explode(row[slot.index], slot.column, options);
    if (exploded.length === 0) continue;
    pushPoints(out, exploded, firstPresent(cells, row, labels)?.value ?? label);
  }
  return out;
};

const customFields = (mapping: CellMapping, row: readonly string[]): DraftCustomField[] => {
  const { cells } = mapping;
  const out: DraftCustomField[] = [];
  for (const columns of mapping.customFields) {
    if ('slots' in columns) {
      const found = firstPresent(cells, row, columns.slots);
      if (found) out.push(customField(columns.entry, columns.name, found.value, found.field));
      continue;
    }
    for (const { slot, name } of columns.prefixed) {
      const text = cells.text(row[slot.index]);
      if (text !== undefined) out.push(customField(columns.entry, name, text, slot.column));
    }
  }
  return out;
};

const reminders = (mapping: CellMapping, row: readonly string[]): DraftReminder[] => {
  const { cells } = mapping;
  const out: DraftReminder[] = [];
  for (const columns of mapping.reminders) {
    const text = firstPresent(cells, row, columns.text);
    if (text === undefined) continue;
    const reminder: DraftReminder = { text };
    const due = firstPresent(cells, row, columns.due);
    if (due) reminder.due = due;
    const recurrence = firstPresent(cells, row, columns.recurrence);
    if (recurrence) reminder.recurrence = recurrence;
    if (columns.dateFormat !== undefined) reminder.dateFormat = columns.dateFormat;
    out.push(reminder);
  }
  return out;
};

const scalarAndListFields = (mapping: CellMapping, row: readonly string[], draft: DraftContact): void => {
  const { cells } = mapping;
  for (const { field, slots, list } of mapping.fields) {
    if (!list) {
      const found = firstPresent(cells, row, slots);
      if (found) draft.fields[field] = found;
      continue;
    }
    const values: unknown[] = [];
    let first: string | undefined;
    for (const { index, column } of slots) {
      if (!cells.present(row[index])) continue;
      values.push(row[index]);
      first ??= column;
    }
    if (first !== undefined) draft.fields[field] = { value: values, field: first };
  }
};

/** One row of the header's input, from its cells in header order. */
export const mapCells = (mapping: CellMapping, row: readonly string[]): DraftContact => {
  const { cells } = mapping;
  const draft = emptyDraft();
  for (const [part, slots] of mapping.nameParts) {
    const found = firstPresent(cells, row, slots);
    if (found) draft.name[part] = found;
  }
  scalarAndListFields(mapping, row, draft);
  draft.emails = contactPoints(mapping, row, mapping.emails);
  draft.phones = contactPoints(mapping, row, mapping.phones);
  for (const { entry, rule, options, slots } of mapping.groups)
    for (const { index, column } of slots)
      addGroupLabels(entry, rule, cells.explode(row[index], column, options), draft);
  draft.customFields = customFields(mapping, row);
  draft.reminders = reminders(mapping, row);
  if (mapping.key) {
    const key = mapping.key.map((index) => cells.text(row[index]) ?? '');
    if (key.some((part) => part !== '')) draft.key = key;
  }
  const sourceId = firstPresent(cells, row, mapping.sourceId)?.value.trim();
  // Namespaced by the pipeline, as the keyed path does.
  if (sourceId) draft.sourceId = `${mapping.pipelineName}:${sourceId}`;
  return draft;
};
