/** The readers' shapes: how a source is read, and the rows, problems and facts it yields. */
import type { IssueCode } from '../core/errors/codes.js';

export type InputFormat = 'csv' | 'tsv' | 'json' | 'ndjson' | 'xlsx' | 'vcard';

/** What a reader learned about one input; `rows` is the number of data records read. */
export interface InputInfo {
  path: string;
  format: InputFormat;
  encoding: string;
  delimiter: string | null;
  rows: number;
  /** The pipeline that read it (each input is detected on its own when none is named). */
  pipeline?: string;
  /** The worksheet read, for a workbook (.xlsx). */
  sheet?: string;
  /** Values the reader leaves out on purpose, counted by kind (vCard: `PHOTO`); absent when none. */
  ignored?: Record<string, number>;
  /** Header columns the pipeline reads nothing from, in file order (inputs with a header). */
  unusedColumns?: string[];
  /** For an unused column, the pipeline column it most likely meant (`name` -> `full_name`). */
  suggestedColumns?: Record<string, string>;
  /**
   * True once every record of the input was read to its end, unchanged meanwhile; false when the
   * run stopped reading it (interrupted, a run-level problem, the input changed while read).
   */
  readWhole?: boolean;
  /** Phone columns whose values were dropped (nearly) whole: those records count against --max-rejects. */
  droppedColumns?: { column: string; dropped: number; values: number }[];
}

/** How to read a source. Everything is optional: readers detect what is not declared. */
export interface Dialect {
  format?: InputFormat;
  /** A single character, `\t` for TSV; detected from the header line when absent. */
  delimiter?: string;
  /** `utf-8`, `utf-16le`, `utf-16be`, `windows-1252`; detected (BOM, then validity) when absent. */
  encoding?: string;
  /** Lines before the header to skip (worknet exports have three); for a workbook, sheet rows. */
  skipLines?: number;
  /** The worksheet of a workbook to read; the first visible one when absent. */
  sheet?: string;
}

/**
 * One data record as read: its file, 1-based data row, the 1-based line of the file where it
 * starts (as an editor shows it: preamble, header and multi-line cells counted; a JSON array: the
 * line of the object's `{`; a workbook: the sheet's row number), values by header name, and raw text.
 */
export interface SourceRow {
  kind: 'row';
  file: string;
  row: number;
  line: number;
  values: Record<string, unknown>;
  /**
   * The record's cells in the order of its input's header (`values` is them keyed by name), for an
   * input with a header (CSV, TSV, a workbook's sheet): what the normalize stage maps. Absent for
   * other formats.
   */
  cells?: readonly string[];
  /** The record's source text, verbatim, so rejected files can be written back unchanged. */
  raw: string;
  /** What the reader read with a doubt but read (a line in another encoding): warnings for the row. */
  warnings?: ReadWarning[];
}

/** A warning a reader attaches to a row it did read (issues.csv, stage `read`). */
export interface ReadWarning {
  code: IssueCode;
  message: string;
  /** The field (column, key or property) it concerns, when one. */
  field?: string;
  value?: string;
}

/** A record the reader could not turn into values (ragged row, bad NDJSON line). */
export interface SourceProblem {
  kind: 'problem';
  file: string;
  row: number;
  line: number;
  code: IssueCode;
  message: string;
  raw: string;
}

export type SourceItem = SourceRow | SourceProblem;

/** A header cell the reader renamed (empty or repeated name); the caller reports it as a warning. */
export interface HeaderIssue {
  code: Extract<IssueCode, 'empty_header' | 'duplicate_header'>;
  /** 1-based column. */
  column: number;
  /** The cell as written. */
  name: string;
  /** The name its values are read under. */
  renamed: string;
  message: string;
}

export interface OpenedSource {
  /** Filled as reading goes; final once `items` is exhausted. */
  info: InputInfo;
  /** Header cells for CSV/TSV (after preamble lines), undefined for JSON. */
  header: string[] | undefined;
  /** The header line verbatim (CSV/TSV), for rejected files. */
  rawHeader: string | undefined;
  /** 1-based line of the header (CSV/TSV: after any preamble), for file-level issues. */
  headerLine?: number;
  items: AsyncIterable<SourceItem>;
  /** Header cells renamed to keep names unique and non-empty (CSV/TSV); `header` holds the new names. */
  headerIssues?: HeaderIssue[];
  /** Releases the input when `items` will not be read to its end (breaking out of a loop also does). */
  close?: () => Promise<void>;
}
