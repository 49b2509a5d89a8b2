import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import type { FieldCount, Issue, IssueCount } from '../core/types.js';
import { commitFile, temporaryPathFor } from './atomic-file.js';
import { IssueTally } from './issue-tally.js';
import { escapeFormula } from './spreadsheet-safety.js';

export const ISSUE_COLUMNS = [
  'file',
  'row',
  'severity',
  'stage',
  'field',
  'value',
  'code',
  'message',
] as const;

/** Values longer than this are cut in issues.csv: a 5 MB cell is evidence enough at 200 characters. */
const MAX_VALUE_CHARS = 200;

/**
 * Streams issues.csv as issues happen and keeps only counts and a few examples per code and per
 * column (issue-tally.ts), so memory does not grow with the number of issues.
 */
export class IssuesFile {
  readonly path: string;
  /** Where the rows go until close() renames it to `path`. */
  private readonly temporary: string;
  private readonly out: WriteStream;
  private readonly tally = new IssueTally();
  private pending: string[] = [];
  errors = 0;
  warnings = 0;

  constructor(path: string) {
    this.path = path;
    this.temporary = temporaryPathFor(path);
    this.out = createWriteStream(this.temporary, { encoding: 'utf8' });
    this.out.write(stringify([ISSUE_COLUMNS as unknown as string[]]));
  }

  add(issue: Issue): void {
    const value =
      issue.value.length > MAX_VALUE_CHARS ? `${issue.value.slice(0, MAX_VALUE_CHARS)}…` : issue.value;
    const cells = [
      issue.file,
      String(issue.row),
      issue.severity,
      issue.stage,
      issue.field,
      value,
      issue.code,
      issue.message,
    ];
    this.pending.push(stringify([cells.map(escapeFormula)]));
    if (this.pending.length >= 256) this.flushPending();
    if (issue.severity === 'error') this.errors += 1;
    else this.warnings += 1;
    this.tally.add(value === issue.value ? issue : { ...issue, value });
  }

  /** Codes by count, most frequent first. */
  topCodes(limit = Infinity): IssueCount[] {
    return this.tally.byCode(limit);
  }

  /** Input columns by issue count, most frequent first. */
  topFields(limit = Infinity): FieldCount[] {
    return this.tally.byField(limit);
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    this.out.write(this.pending.join(''));
    this.pending = [];
  }

  async close(): Promise<void> {
    this.flushPending();
    this.out.end();
    await once(this.out, 'finish');
    commitFile(this.temporary, this.path);
  }
}
