import { mkdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import { writeFileAtomic } from '../report/atomic-file.js';
import { IssuesFile } from '../report/issues-file.js';
import { RejectedFile } from '../report/rejected-file.js';
import { writeHtmlReport, type ReportModel } from '../report/html/index.js';
import type { RunReport } from '../report/run-report.js';
import type { InputFormat, Issue, RejectedRecord } from '../core/types.js';

/** Creates the run's `--out` folder; a folder that cannot be made stops the run before it starts. */
export const prepareOutDir = (dir: string): void => {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ImportError(
      'output_error',
      `cannot create the output folder ${dir}: ${(error as Error).message}`,
      { file: dir },
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
 * report.html beside report.json (run and undo alike). report.json already holds every number, so
 * a page that cannot be written is logged and the run goes on; returns its path when written.
 */
export const writeHtmlReportFile = (
  dir: string,
  model: ReportModel,
  warn: (message: string) => void,
): string | undefined => {
  try {
    return writeHtmlReport(dir, model);
  } catch (error) {
    warn(`report.html could not be written: ${(error as Error).message}`);
    return undefined;
  }
};

/** The files a run may write in its `--out` besides the rejected files. */
const REPORT_FILES = ['report.json', 'issues.csv', 'report.html', 'changes.csv'];
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
 * The files of one run in `--out`: issues.csv, the rejected records of each input, report.json.
 * Issues and rejected records stream to disk as they happen.
 */
export class RunOutputs {
  readonly dir: string;
  readonly issues: IssuesFile;
  private readonly rejected = new Map<number, RejectedFile>();
  private readonly inputCount: number;
  private sources: ((input: number, row: number) => string | undefined) | undefined;

  constructor(dir: string, inputCount: number, workDir: string) {
    this.dir = dir;
    this.inputCount = inputCount;
    prepareOutDir(dir);
    this.issues = new IssuesFile(join(dir, 'issues.csv'), workDir);
  }

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
    this.rejected.set(index, new RejectedFile({ ...source, format, path: join(this.dir, name) }));
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

  /** Paths of the rejected files that hold records. */
  rejectedPaths(): string[] {
    return [...this.rejected.values()].filter((f) => f.records > 0).map((f) => f.path);
  }

  async close(): Promise<void> {
    await this.issues.close();
    await Promise.all([...this.rejected.values()].map((f) => f.close()));
  }
}
