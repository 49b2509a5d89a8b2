import type { Issue, IssueCount } from '../core/types.js';
import type { FieldCount } from './types.js';

/** Examples kept per issue code and per column: enough to recognise a problem, bounded always. */
export const EXAMPLES_PER_KEY = 3;

/**
 * Distinct columns counted one by one; past this, issues count under OTHER_FIELDS. JSON inputs
 * can carry a new key on every record, and the tally must not grow with the input.
 */
export const MAX_FIELDS = 1000;
export const OTHER_FIELDS = '(other columns)';

/**
 * Counts issues by code (with severity) and by input column, keeping the first few of each as
 * examples. Cost per issue: two map look-ups and a counter; memory bounded by codes and columns.
 */
export class IssueTally {
  private readonly codes = new Map<string, IssueCount & { examples: Issue[] }>();
  private readonly fields = new Map<string, FieldCount>();

  /** `issue.value` should already be cut as issues.csv cuts it. */
  add(issue: Issue): void {
    const key = `${issue.severity}:${issue.code}`;
    const seen = this.codes.get(key);
    if (seen) {
      seen.count += 1;
      if (seen.examples.length < EXAMPLES_PER_KEY) seen.examples.push(issue);
    } else {
      this.codes.set(key, {
        code: issue.code,
        severity: issue.severity,
        count: 1,
        example: issue,
        examples: [issue],
      });
    }
    const field = this.fields.has(issue.field) || this.fields.size < MAX_FIELDS ? issue.field : OTHER_FIELDS;
    const column = this.fields.get(field);
    if (column) {
      column.count += 1;
      if (column.examples.length < EXAMPLES_PER_KEY) column.examples.push(issue);
    } else this.fields.set(field, { field, count: 1, examples: [issue] });
  }

  /** Codes by count, most frequent first. */
  byCode(limit = Infinity): IssueCount[] {
    return [...this.codes.values()].sort((a, b) => b.count - a.count).slice(0, limit);
  }

  /** Columns by count, most frequent first ('' holds whole-record issues). */
  byField(limit = Infinity): FieldCount[] {
    return [...this.fields.values()].sort((a, b) => b.count - a.count).slice(0, limit);
  }
}
