import { unlinkSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { describeIoProblem, ImportError } from '../core/errors/index.js';
import { makeFolder } from '../core/make-folder.js';
import { writeFileAtomic } from './atomic-file.js';
import { IssuesFile } from './issues-file.js';
import { OutcomesFile } from './outcomes-file.js';
import { RejectedFile } from './rejected-file.js';
import { writeHtmlReport, type ReportModel } from './html/index.js';
import type { RunReport } from './run-report.js';
import type { Issue, RejectedRecord } from '../core/types.js';
import type { InputFormat } from '../readers/types.js';

/** Creates the run's `--out` folder; a folder that cannot be made stops the run before it starts. */
export const prepareOutDir = (dir: string): void => {
  try {
    makeFolder(dir);
  } catch (error) {
    const io = describeIoProblem(error, dir, '--out');
    throw new ImportError(
      'output_error',
      `cannot create the output folder ${dir}: ${io ?? (error as Error).message}`,
      { file: dir },
      { cause: error },
    );
  }
};

/** report.json, written whole then renamed, so a reader never sees half a report. */
export const writeReportFile = (dir: string, report: RunReport): string => {
  const path = join(dir, 'report.json');
  writeFileAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
};

/**
 * report.html beside report.json (run and undo alike): its path, or the output_error that kept it
 * from being written (then no page is left, not even half of one).
 */
export const writeHtmlReportFile = (
  dir: string,
  model: ReportModel,
): { path: string } | { error: ImportError } => {
  try {
    return { path: writeHtmlReport(dir, model) };
  } catch (error) {
    if (error instanceof ImportError) return { error };
    throw error;
  }
};

/** Removes a file the run wrote that a later failure made misleading (a page whose report is missing). */
export const removeOutput = (path: string): void => {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
};

/** The files a run may write in its `--out` besides the rejected files. */
const REPORT_FILES = [
  'report.json',
  'issues.csv',
  'report.html',
  'changes.csv',
  'outcomes.csv',
  'candidates.csv',
];
/** Every format a rejected file can take (a workbook's rejects are CSV). */
const REJECTED_FORMATS = ['csv', 'tsv', 'json', 'ndjson', 'vcf'];

/** The rejected file of input `index` of `inputCount`, in `format`. */
const rejectedName = (index: number, inputCount: number, inputPath: string, format: string): string =>
  inputCount === 1
    ? `rejected.${format}`
    : `rejected.${index + 1}-${basename(inputPath, extname(inputPath)) || 'stdin'}.${format}`;

/** Every path in `dir` a run over `inputs` may write, whatever their formats turn out to be. */
export const outputPathsOf = (dir: string, inputs: readonly string[]): string[] => [
  ...REPORT_FILES.map((name) => join(dir, name)),
  ...inputs.flatMap((input, index) =>
    REJECTED_FORMATS.map((format) => join(dir, rejectedName(index, inputs.length, input, format))),
  ),
];

/**
 * The files of one run in `--out`: issues.csv, outcomes.csv, the rejected records of each input,
 * report.json. Issues, outcomes and rejected records stream to disk as they happen.
 */
export class RunOutputs {
  readonly dir: string;
  readonly issues: IssuesFile;
  /** One row per record read: what became of it (outcomes-file.ts). */
  readonly outcomes: OutcomesFile;
  private readonly rejected = new Map<number, RejectedFile>();
  private readonly inputCount: number;
  private sources: ((input: number, row: number) => string | undefined) | undefined;
  private readonly failure = new AbortController();

  constructor(dir: string, inputCount: number, workDir: string) {
    this.dir = dir;
    this.inputCount = inputCount;
    prepareOutDir(dir);
    this.issues = new IssuesFile(join(dir, 'issues.csv'), workDir);
    this.outcomes = new OutcomesFile(join(dir, 'outcomes.csv'), this.fail);
  }

  /**
   * Aborted, with the output_error, the moment a file that streams as the run goes (outcomes.csv,
   * a rejected file) fails a write: a full disk or a file-size limit stops the run there, as a
   * stop signal would (chunks in flight finish, the rest is pending), rather than reading and
   * sending on to fail at the end. close() throws the same error.
   */
  get failed(): AbortSignal {
    return this.failure.signal;
  }

  private readonly fail = (error: unknown): void => {
    if (!this.failure.signal.aborted) this.failure.abort(error);
  };

  addIssues(issues: Issue[]): void {
    for (const issue of issues) this.issues.add(issue);
  }

  /** Opens the rejected file of input `index` (its header and format are known once it is open). */
  registerInput(
    index: number,
    source: { path: string; format: InputFormat; rawHeader?: string; delimiter?: string | null },
  ): void {
    if (this.rejected.has(index)) return;
    // A workbook's rejects are a CSV file with the sheet's header: it opens in any spreadsheet program.
    const format = source.format === 'xlsx' ? 'csv' : source.format;
    const name = rejectedName(index, this.inputCount, source.path, format === 'vcard' ? 'vcf' : format);
    this.rejected.set(
      index,
      new RejectedFile({ ...source, format, path: join(this.dir, name), onFailure: this.fail }),
    );
  }

  /**
   * Where the source text of a record that ends rejected or failed after it was staged is read
   * back from (the staging's side table): staged records do not carry it.
   */
  readSourcesFrom(lookup: (input: number, row: number) => string | undefined): void {
    this.sources = lookup;
  }

  /** Writes a record that was not loaded to its input's rejected file, with its row and errors. */
  reject(input: number, record: RejectedRecord): void {
    const raw = record.raw ?? this.sources?.(input, record.row) ?? '';
    this.rejected.get(input)?.add({ ...record, raw });
  }

  /** Paths of the rejected files that hold records and were written whole. */
  rejectedPaths(): string[] {
    return [...this.rejected.values()].filter((f) => f.records > 0 && f.written).map((f) => f.path);
  }

  /**
   * Closes every file, each written whole or not at all; throws the first output_error once all
   * are settled, so no temporary file is left behind by another.
   */
  async close(): Promise<void> {
    const results = await Promise.allSettled([
      Promise.resolve().then(() => this.outcomes.close()),
      this.issues.close(),
      ...[...this.rejected.values()].map((f) => f.close()),
    ]);
    for (const file of this.rejected.values()) if (!file.written) file.discard();
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
