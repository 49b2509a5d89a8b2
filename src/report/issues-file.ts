import type { Issue, IssueCount } from '../core/types.js';
import type { FieldCount } from './types.js';
import { AtomicWriteStream } from './atomic-file.js';
import { csvRecord } from './csv-record.js';
import { IssueTally } from './issue-tally.js';
import { IssueSpool } from './issue-spool.js';

export const ISSUE_COLUMNS = [
  'file',
  'row',
  'line',
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
 * issues.csv: rows sorted by file, then row (docs/design.md), whatever order the stages find them in.
 * Rows wait in an IssueSpool (memory, then a scratch SQLite file) and are written at close; only
 * counts and a few examples per code and per column (issue-tally.ts) stay in memory, however
 * many issues there are.
 */
export class IssuesFile {
  readonly path: string;
  private readonly spool: IssueSpool;
  private readonly tally = new IssueTally();
  errors = 0;
  warnings = 0;

  /** `workDir`: the run's scratch folder, where the rows wait when there are many. */
  constructor(path: string, workDir: string) {
    this.path = path;
    this.spool = new IssueSpool(workDir);
  }

  add(issue: Issue): void {
    const value =
      issue.value.length > MAX_VALUE_CHARS ? `${issue.value.slice(0, MAX_VALUE_CHARS)}…` : issue.value;
    const cells = [
      issue.file,
      String(issue.row),
      issue.line > 0 ? String(issue.line) : '',
      issue.severity,
      issue.stage,
      issue.field,
      value,
      issue.code,
      issue.message,
    ];
    this.spool.add(issue.file, issue.row, csvRecord(cells));
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

  /**
   * Writes the sorted rows under a temporary name, then renames it to `path`; a write that fails
   * leaves no file and throws output_error.
   */
  async close(): Promise<void> {
    const out = new AtomicWriteStream(this.path);
    try {
      let batch: string[] = [csvRecord(ISSUE_COLUMNS)];
      for (const row of this.spool.sorted()) {
        batch.push(row);
        if (batch.length < 512) continue;
        if (!out.write(batch.join(''))) await out.drained();
        batch = [];
        if (out.failed) break;
      }
      await out.commit(batch.join(''));
    } finally {
      out.discard();
      this.spool.close();
    }
  }
}
