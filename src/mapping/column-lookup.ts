import type { Sourced } from './types.js';
import { isRejectColumn } from '../core/reject-columns.js';
import type { Cells } from './cells.js';
import { alternatives, ColumnIndex, withNumber, type ColumnMatch } from './columns.js';
import type { ColumnRef } from './schema.js';

export type Values = Record<string, unknown>;

/** A JSON object's keys that a pipeline may map. */
export const keysOf = (values: Values): string[] => Object.keys(values).filter((key) => !isRejectColumn(key));

/**
 * Where a column reference's values are in one row of an input. With a header, a reference's
 * alternatives are resolved to the header's columns once: cell-mapping.ts turns those into cell
 * positions, and a keyed row a caller hands (exactly the header's columns) is read by direct key.
 * Names are found as detection compares them (relaxed: case, spaces, underscores), through one
 * ColumnIndex. Without a header (JSON, vCard) the row's keys are indexed instead, and the index
 * reused while rows keep one shape.
 */
export class ColumnLookup {
  readonly headerIndex: ColumnIndex | undefined;
  private readonly headerMatches = new Map<string, ColumnMatch[]>();
  private readonly resolved = new Map<ColumnRef, Map<string | undefined, string[]>>();
  private readonly inHeaderColumns = new Map<string[], string[]>();
  private readonly byPrefix = new Map<string, string[]>();
  private lastValues: Values | undefined;
  private lastKeys: string[] = [];
  private lastIndex = new ColumnIndex([]);

  /** `header`: the input's column names without the columns a run adds to rejected files. */
  constructor(
    readonly header: string[] | undefined,
    readonly cells: Cells,
  ) {
    this.headerIndex = header === undefined ? undefined : new ColumnIndex(header);
  }

  /** The index of a headerless row's keys: the last one while rows keep their keys. */
  keyIndex(values: Values): ColumnIndex {
    if (values === this.lastValues) return this.lastIndex;
    this.lastValues = values;
    const keys = keysOf(values);
    const lastKeys = this.lastKeys;
    if (keys.length !== lastKeys.length || keys.some((key, i) => key !== lastKeys[i])) {
      this.lastKeys = keys;
      this.lastIndex = new ColumnIndex(keys);
    }
    return this.lastIndex;
  }

  /** The columns `column` names in this row: from the header (cached) or the JSON object's keys. */
  columnsOf(column: string, values: Values): ColumnMatch[] {
    if (this.headerIndex === undefined) return this.keyIndex(values).match(column);
    let found = this.headerMatches.get(column);
    if (found === undefined) this.headerMatches.set(column, (found = this.headerIndex.match(column)));
    return found;
  }

  /** A reference's alternatives with the family number in, narrowed to the header; cached. */
  columnsFor(ref: ColumnRef, n: string | undefined, rowLevel: boolean): string[] {
    let byNumber = this.resolved.get(ref);
    if (byNumber === undefined) this.resolved.set(ref, (byNumber = new Map()));
    let columns = byNumber.get(n);
    if (columns === undefined) {
      columns = alternatives(ref).map((alternative) => withNumber(alternative, n));
      byNumber.set(n, columns);
    }
    return rowLevel && this.headerIndex !== undefined ? this.narrowed(columns, this.headerIndex) : columns;
  }

  /** The header's names of `columns`, absent ones left out, each once. */
  private narrowed(columns: string[], index: ColumnIndex): string[] {
    let found = this.inHeaderColumns.get(columns);
    if (found === undefined) {
      const names = columns.flatMap((column) => index.resolve(column) ?? []);
      this.inHeaderColumns.set(columns, (found = [...new Set(names)]));
    }
    return found;
  }

  /** The first alternative with a present value. `rowLevel` is false for a JSON list element. */
  first(
    ref: ColumnRef | undefined,
    values: Values,
    n?: string,
    rowLevel = true,
  ): Sourced<unknown> | undefined {
    if (ref === undefined) return undefined;
    const keys = rowLevel && this.headerIndex === undefined ? this.keyIndex(values) : undefined;
    for (const wanted of this.columnsFor(ref, n, rowLevel)) {
      const column = keys ? (keys.resolve(wanted) ?? wanted) : wanted;
      const value = values[column];
      if (this.cells.present(value)) return { value, field: column };
    }
    return undefined;
  }

  /** `first`, as text. */
  firstText(ref: ColumnRef | undefined, values: Values, n?: string, rowLevel = true): Sourced | undefined {
    const found = this.first(ref, values, n, rowLevel);
    const text = found && this.cells.text(found.value);
    return found && text !== undefined ? { value: text, field: found.field } : undefined;
  }

  /** Every present value of every alternative (families expanded), for a list field. */
  allValues(ref: ColumnRef, values: Values): Sourced<unknown> | undefined {
    const found: unknown[] = [];
    let field: string | undefined;
    for (const alternative of alternatives(ref)) {
      for (const { column } of this.columnsOf(alternative, values)) {
        if (!this.cells.present(values[column])) continue;
        found.push(values[column]);
        field ??= column;
      }
    }
    return field === undefined ? undefined : { value: found, field };
  }

  /** The columns under a prefix (not the bare prefix), in column order; once per header. */
  prefixedColumns(prefix: string, values: Values): string[] {
    const pick = (columns: string[]) =>
      columns.filter((column) => column.startsWith(prefix) && column.length > prefix.length);
    if (this.header === undefined) return pick(keysOf(values));
    let found = this.byPrefix.get(prefix);
    if (found === undefined) this.byPrefix.set(prefix, (found = pick(this.header)));
    return found;
  }

  /** The text of the `key` columns of a row, '' for each absent one. */
  keyOf(key: readonly string[], values: Values): string[] {
    const index = this.headerIndex ?? this.keyIndex(values);
    return key.map((column) => this.cells.text(values[index.resolve(column) ?? column]) ?? '');
  }

  /** False when a header holds none of a reference's columns: a row then never has its value. */
  mayHold(ref: ColumnRef | undefined): boolean {
    return ref !== undefined && this.columnsFor(ref, undefined, true).length > 0;
  }

  /** `mayHold` for a list field, whose alternatives may be families. */
  mayHoldList(ref: ColumnRef | undefined): boolean {
    return (
      ref !== undefined &&
      (this.header === undefined || alternatives(ref).some((a) => this.columnsOf(a, {}).length > 0))
    );
  }
}
