import type { Issue } from '../core/types.js';
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
