import { relaxedName } from '../core/column-names.js';
import { alternatives, familyMatcher, isFamily } from './columns.js';
import type { PipelineFile } from './schema.js';

/**
 * A pipeline's header signature: every column name its file refers to (names, fields, e-mails,
 * phones, groups, custom fields), compared in a relaxed form so detection survives the spelling
 * differences real exports have (case, spaces, underscores, a byte-order mark). The row mapper
 * finds columns by the same rule (`ColumnIndex` in columns.ts), so a header detection accepts is
 * one the mapper reads.
 */

/** The one comparison rule of header names, shared with the row mapper (core/column-names.ts). */
export { relaxedName };

/** The column names (and `{n}` families) a pipeline file refers to, relaxed, without repeats. */
export const signatureColumns = (spec: PipelineFile): string[] => {
  const refs: string[] = [];
  const add = (ref: string | string[] | undefined) => refs.push(...alternatives(ref));
  for (const ref of Object.values(spec.name_parts ?? {})) add(ref);
  for (const ref of Object.values(spec.fields ?? {})) add(ref);
  for (const point of [...(spec.emails ?? []), ...(spec.phones ?? [])]) {
    add(point.column);
    add(point.label_column);
  }
  for (const group of spec.groups ?? []) add(group.column);
  for (const custom of spec.custom_fields ?? []) add(custom.column);
  return [...new Set(refs.map(relaxedName))];
};

/** A test of one relaxed header name against one relaxed signature column. */
export const columnTest = (column: string): ((name: string) => boolean) => {
  if (!isFamily(column)) return (name) => name === column;
  const numberOf = familyMatcher(column);
  return (name) => numberOf(name) !== undefined;
};
