import type { Issue } from '../core/types.js';
import type { SourceRow } from '../readers/types.js';
import type { DraftContact } from './types.js';
import { Cells } from './cells.js';
import { isRejectColumn, REJECT_COLUMNS } from '../core/reject-columns.js';
import { removeFormulaGuard } from '../core/spreadsheet-safety.js';
import { ColumnLookup } from './column-lookup.js';
import { checkHeader } from './header-check.js';
import { compileCellMapping, mapCells } from './cell-mapping.js';
import { emptyDraft } from './empty-draft.js';
import {
  contactPoints,
  customFields,
  groups,
  listConceptContext,
  reminders,
  type ListConceptContext,
} from './list-concepts.js';
import type { Pipeline } from './pipeline.js';
import { LIST_FIELDS, NAME_PARTS, type NamePart } from './field-names.js';
import type { ColumnRef, PipelineFile } from './schema.js';

/**
 * Sorts one source row's values into contact concepts (a DraftContact), as the pipeline says.
 * Values stay raw: the normalize stage trims, lowercases and parses them.
 */
export interface RowMapper {
  /** Mapped columns missing from the CSV header (row 0); empty for JSON. */
  headerIssues: Issue[];
  /**
   * Reads a row of an input with a header by its cells (cell-mapping.ts), never its `values`: a
   * reader's row builds that keyed object only when asked. A row without cells (JSON, NDJSON,
   * vCard, or keyed values a caller hands for a header) is read by key.
   */
  map(row: MappedRow): DraftContact;
}

/** A source row, or the part of it the normalize stage hands over: its cells, else its values. */
export type MappedRow = Pick<SourceRow, 'values'> & Partial<SourceRow>;

/** What mapping a row of one input needs, settled once per input. */
interface RowPlan {
  readonly spec: PipelineFile;
  readonly name: string;
  readonly key: string[] | undefined;
  readonly lookup: ColumnLookup;
  readonly lists: ListConceptContext;
  /** With a header, the parts and fields whose columns are all absent are left out once, not per row. */
  readonly nameParts: readonly NamePart[];
  readonly fieldRefs: readonly [string, ColumnRef | undefined][];
}

const planRows = (pipeline: Pipeline, header: string[] | undefined): RowPlan => {
  const { spec } = pipeline;
  const lookup = new ColumnLookup(header, new Cells(pipeline.emptyValues));
  return {
    spec,
    name: pipeline.name,
    key: pipeline.key,
    lookup,
    lists: listConceptContext(lookup, pipeline.multiValueSeparator),
    nameParts: NAME_PARTS.filter((part) => lookup.mayHold(spec.name_parts[part])),
    fieldRefs: Object.entries(spec.fields).filter(([field, ref]) =>
      LIST_FIELDS.has(field) ? lookup.mayHoldList(ref) : lookup.mayHold(ref),
    ),
  };
};

const mapRow = (plan: RowPlan, values: Record<string, unknown>): DraftContact => {
  const { spec, lookup, lists } = plan;
  const draft = emptyDraft();
  for (const part of plan.nameParts) {
    const found = lookup.firstText(spec.name_parts[part], values);
    if (found) draft.name[part] = found;
  }
  for (const [field, ref] of plan.fieldRefs) {
    const found = LIST_FIELDS.has(field) ? lookup.allValues(ref!, values) : lookup.first(ref, values);
    if (found) draft.fields[field] = found;
  }
  draft.emails = contactPoints(lists, spec.emails, values, 'email');
  draft.phones = contactPoints(lists, spec.phones, values, 'phone_number');
  groups(lists, spec.groups, values, draft);
  draft.customFields = customFields(lists, spec.custom_fields, values);
  draft.reminders = reminders(lists, spec.reminders, values);
  if (plan.key) {
    const key = lookup.keyOf(plan.key, values);
    if (key.some((part) => part !== '')) draft.key = key;
  }
  const sourceId = lookup.firstText(spec.source_id, values)?.value.trim();
  // Namespaced by the pipeline: two products' ids never meet, and 42 of one is not 42 of another.
  if (sourceId) draft.sourceId = `${plan.name}:${sourceId}`;
  return draft;
};

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
  const ours = isOurRejectedFile(fullHeader);
  const header = fullHeader
    ?.filter((name) => !isRejectColumn(name))
    .map(ours ? removeFormulaGuard : (name) => name);
  const plan = planRows(pipeline, header);
  const byCell =
    fullHeader === undefined
      ? undefined
      : compileCellMapping(pipeline, plan.lookup, plan.lists, fullHeader, ours);
  return {
    headerIssues: header === undefined ? [] : checkHeader(pipeline, header, file, headerLine),
    map: (row) => {
      const { cells } = row;
      if (cells !== undefined && byCell !== undefined)
        return mapCells(byCell, ours ? cells.map(removeFormulaGuard) : cells);
      return mapRow(plan, ours ? unguarded(row.values) : row.values);
    },
  };
};

/**
 * A CSV whose header holds both columns a run adds to its rejected files is one we wrote: its
 * cells carry the spreadsheet guard (`'=Chief`), which is taken off again so the values load as
 * they were read the first time (docs/report.md "Spreadsheet safety").
 */
const isOurRejectedFile = (header: readonly string[] | undefined): boolean =>
  header !== undefined && REJECT_COLUMNS.every((column) => header.includes(column));

const unguarded = (values: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    const name = removeFormulaGuard(column);
    const cell = typeof value === 'string' ? removeFormulaGuard(value) : value;
    // A column named __proto__ is data: plain assignment would drop it (a string is no prototype).
    if (name === '__proto__')
      Object.defineProperty(out, name, { value: cell, enumerable: true, writable: true, configurable: true });
    else out[name] = cell;
  }
  return out;
};
