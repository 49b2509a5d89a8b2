import type { Issue } from '../core/types.js';
import type { InputInfo, SourceRow } from '../readers/types.js';

/**
 * A phone column whose values were dropped nearly whole (numbers of another country, a column of
 * something else) is data lost, not a warning: those records count against --max-rejects. A
 * column is watched from its first dropped number on, so a run whose numbers pass pays nothing.
 */

/** Dropped values a column needs before it counts: a few bad numbers are typos, warned about. */
export const MIN_DROPPED = 10;
/** The share of a column's values (from its first drop on) that must be dropped. */
export const DROPPED_SHARE = 0.9;

interface ColumnCount {
  /** Where the column's cell is in a CSV record's cells; -1: read it by name. */
  index: number;
  dropped: number;
  values: number;
}

const filled = (value: unknown): boolean =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

export class PhoneDrops {
  private readonly columns = new Map<string, ColumnCount>();

  constructor(private readonly header: readonly string[] | undefined) {}

  /** A staged record: its dropped numbers by column, and its values of the columns watched. */
  note(row: SourceRow, issues: readonly Issue[]): void {
    let droppedHere: Set<string> | undefined;
    for (const issue of issues) {
      if (issue.code !== 'invalid_phone' || !issue.field) continue;
      (droppedHere ??= new Set()).add(issue.field);
      if (!this.columns.has(issue.field))
        this.columns.set(issue.field, {
          index: this.header?.indexOf(issue.field) ?? -1,
          dropped: 0,
          values: 0,
        });
    }
    for (const [column, count] of this.columns) {
      if (droppedHere?.has(column)) count.dropped += 1;
      const value = count.index >= 0 && row.cells ? row.cells[count.index] : row.values[column];
      if (filled(value)) count.values += 1;
    }
  }

  /** The columns dropped whole, on the input's info (report.json `inputs[].droppedColumns`). */
  finish(info: InputInfo): void {
    const dropped = [...this.columns]
      .filter(([, c]) => c.dropped >= MIN_DROPPED && c.dropped >= c.values * DROPPED_SHARE)
      .map(([column, c]) => ({ column, dropped: c.dropped, values: c.values }));
    if (dropped.length > 0) info.droppedColumns = dropped;
  }
}
