import type { Issue } from '../core/types.js';
import { nearestLowered } from '../core/nearest.js';
import { isRejectColumn } from '../core/reject-columns.js';
import { alternatives, ColumnIndex } from './columns.js';
import type { Pipeline } from './pipeline.js';
import type { ColumnRef } from './schema.js';

/**
 * Compares the columns a pipeline maps with a CSV header, once per file. One `unknown_column`
 * warning per missing column, on row 0: a misspelt column shows up once, not on every row.
 */

interface Reference {
  /** Alternatives: the reference is satisfied when any of them is in the header. */
  columns: string[];
  /** What the column feeds, for the message. */
  target: string;
}

const references = (pipeline: Pipeline): Reference[] => {
  const { spec } = pipeline;
  const refs: Reference[] = [];
  const add = (ref: ColumnRef | undefined, target: string) => {
    const columns = alternatives(ref);
    if (columns.length > 0) refs.push({ columns, target });
  };
  for (const [part, ref] of Object.entries(spec.name_parts)) add(ref, `name_parts.${part}`);
  for (const [field, ref] of Object.entries(spec.fields)) add(ref, `fields.${field}`);
  spec.emails.forEach((entry, i) => add(entry.column, `emails[${i}]`));
  spec.phones.forEach((entry, i) => add(entry.column, `phones[${i}]`));
  spec.groups.forEach((entry, i) => add(entry.column, `groups[${i}]`));
  spec.custom_fields.forEach((entry, i) => add(entry.column ?? entry.from_object, `custom_fields[${i}]`));
  spec.reminders.forEach((entry, i) => {
    if (entry.list !== undefined) add(entry.list, `reminders[${i}]`);
    else {
      add(entry.text, `reminders[${i}].text`);
      add(entry.due, `reminders[${i}].due`);
      add(entry.recurrence, `reminders[${i}].recurrence`);
    }
  });
  return refs;
};

/** Present as the row mapper finds it (relaxed, see ColumnIndex). */
const matches = (column: string, index: ColumnIndex): boolean => index.match(column).length > 0;

export const checkHeader = (
  pipeline: Pipeline,
  header: readonly string[],
  file: string,
  headerLine = 0,
): Issue[] => {
  const index = new ColumnIndex(header);
  const issues: Issue[] = [];
  const warned = new Set<string>();
  const warn = (column: string, message: string) => {
    if (warned.has(column)) return;
    warned.add(column);
    issues.push({
      file,
      row: 0,
      line: headerLine,
      severity: 'warning',
      stage: 'map',
      field: column,
      value: '',
      code: 'unknown_column',
      message,
    });
  };
  const missingText = (columns: string[]) =>
    columns.length === 1
      ? `column "${columns[0]}" is not in the header`
      : `none of the columns ${columns.map((c) => `"${c}"`).join(', ')} is in the header`;

  const refs = references(pipeline);
  const prefixes = pipeline.spec.custom_fields.flatMap((entry) =>
    entry.column_prefix ? [entry.column_prefix] : [],
  );
  const anyMatch =
    refs.some((ref) => ref.columns.some((column) => matches(column, index))) ||
    header.some((name) => prefixes.some((prefix) => name.startsWith(prefix)));
  if (!anyMatch) {
    warn(
      '',
      `no column the pipeline "${pipeline.name}" maps is in the header of ${file} (${header.length} columns, starting ${header
        .slice(0, 4)
        .map((c) => `"${c}"`)
        .join(', ')}); is it the right pipeline?`,
    );
  }

  for (const column of pipeline.key ?? []) {
    if (index.resolve(column) === undefined)
      warn(
        column,
        `${missingText([column])}; it is a key column, so identity falls back to e-mail, phone or name`,
      );
  }
  for (const column of pipeline.required) {
    if (!matches(column, index)) warn(column, `${missingText([column])}; the pipeline marks it required`);
  }
  if (pipeline.missingColumns === 'warn' && anyMatch) {
    for (const ref of refs) {
      if (!ref.columns.some((column) => matches(column, index))) {
        warn(
          ref.columns[0]!,
          `${missingText(ref.columns)}; the pipeline maps it to ${ref.target}, which stays empty`,
        );
      }
    }
  }
  return issues;
};

/** Every column name the pipeline reads from a header: mapped columns, labels, keys and source ids. */
const usedColumns = (pipeline: Pipeline): string[] => {
  const { spec } = pipeline;
  const used = references(pipeline).flatMap((ref) => ref.columns);
  for (const entry of [...spec.emails, ...spec.phones]) used.push(...alternatives(entry.label_column));
  used.push(...(pipeline.key ?? []), ...alternatives(spec.source_id), ...pipeline.required);
  return used;
};

export interface UnusedColumns {
  /** Header columns the pipeline reads nothing from, in file order. */
  columns: string[];
  /** For an unused column, the pipeline's own column it most likely meant (`name` -> `full_name`). */
  nearest: Record<string, string>;
}

/**
 * The header columns a run would pass over in silence: a `name` column run with a
 * pipeline that reads `full_name` loads contacts without their names, so it is said, with the
 * pipeline column it is closest to among those the header lacks.
 */
export const unusedColumns = (pipeline: Pipeline, header: readonly string[]): UnusedColumns => {
  const { columns, missing } = unreadColumns(pipeline, header);
  const nearestOf = nearestAmong(missing);
  const suggestions: Record<string, string> = {};
  for (const column of columns) {
    const candidate = nearestOf(column);
    if (candidate !== undefined) suggestions[column] = candidate;
  }
  return { columns, nearest: suggestions };
};

/**
 * The header columns the pipeline reads nothing from, in file order (unusedColumns without the
 * suggestions); and the pipeline's columns the header lacks.
 */
export const unreadColumns = (
  pipeline: Pipeline,
  header: readonly string[],
): { columns: string[]; missing: string[] } => {
  const index = new ColumnIndex(header);
  const read = new Set<string>();
  const missing: string[] = [];
  for (const column of usedColumns(pipeline)) {
    const found = index.match(column);
    for (const match of found) read.add(match.column);
    if (found.length === 0 && !column.includes('{n}')) missing.push(column);
  }
  const prefixes = pipeline.spec.custom_fields.flatMap((entry) =>
    entry.column_prefix ? [entry.column_prefix] : [],
  );
  const columns = header.filter(
    (name) =>
      name.trim() !== '' &&
      !isRejectColumn(name) &&
      !read.has(name) &&
      !prefixes.some((prefix) => name.startsWith(prefix)),
  );
  return { columns, missing };
};

const plain = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * For a column, a typo (edit distance) of one of the candidates, or a candidate holding it
 * (`name` in `full_name`, `e-mail` / `email`). The candidates' forms are made once: a header may
 * have a hundred thousand columns to look up.
 */
const nearestAmong = (candidates: readonly string[]): ((column: string) => string | undefined) => {
  const lowered = candidates.map((candidate) => candidate.toLowerCase());
  const plains = candidates.map(plain);
  return (column) => {
    const typo = nearestLowered(column.toLowerCase(), candidates, lowered);
    if (typo !== undefined) return typo;
    const wanted = plain(column);
    if (wanted.length < 3) return undefined;
    const at = plains.findIndex(
      (other) => other === wanted || other.endsWith(wanted) || other.startsWith(wanted),
    );
    return at === -1 ? undefined : candidates[at];
  };
};

/**
 * The contact fields (`fields.*` of the pipeline) a header has a column for: what an empty cell
 * of that header can clear on the target in a sync run (a dropped column clears nothing).
 */
export const fieldsInHeader = (pipeline: Pipeline, header: readonly string[]): string[] => {
  const index = new ColumnIndex(header);
  return references(pipeline)
    .filter((ref) => ref.target.startsWith('fields.') && ref.columns.some((c) => matches(c, index)))
    .map((ref) => ref.target.slice('fields.'.length));
};
