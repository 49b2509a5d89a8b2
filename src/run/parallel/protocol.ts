import type { Pipeline } from '../../mapping/index.js';
import type { NormalizedRecord } from '../../core/record.js';
import type { Issue, SourceRow } from '../../core/types.js';
import type { PersonFields } from '../../candidates/types.js';

/** What a normalize worker needs to map and normalize rows of one input, sent once at start. */
export interface WorkerSetup {
  pipeline: Pipeline;
  header: string[] | undefined;
  file: string;
  input: number;
  region?: string;
  strict: boolean;
  /** Stage only where each record came from, not the record (a dry run that only counts). */
  keysOnly?: boolean;
  /** Each summary carries what the duplicate-candidates matcher compares of the record. */
  candidates?: boolean;
  /** `--max-body-bytes`: a record whose write object fits no request body is rejected. */
  maxBodyBytes?: number;
  /** Run hook (run/hooks.ts): the worker exits when its n-th batch arrives. */
  exitAt?: number;
  /**
   * A load runs meanwhile (load while reading): the reading thread hands every batch to the
   * workers, normalizing none itself (parallel/batches.ts).
   */
  background?: boolean;
  /**
   * The worker's thread takes a lower scheduling priority (when the host allows it, with
   * `background`), so the thread that sends (and a local service on the same cores) runs first
   * and normalizing fills the time they leave.
   */
  lowPriority?: boolean;
}

/** What the main thread needs of a staged record: where it came from, its identity and references. */
export type RecordSummary = Pick<
  NormalizedRecord,
  'file' | 'row' | 'line' | 'key' | 'groups' | 'customFields'
> & { person?: PersonFields };

/**
 * A record's outcome ready for staging: the record travels as its JSON text (what the staging
 * store keeps), so it is serialized once, in the worker, and copied as one string. A keys-only
 * staging keeps no record: `json` is then empty, the summary is all it needs.
 */
export type PreparedOutcome =
  { ok: true; issues: Issue[]; summary: RecordSummary; json: string } | { ok: false; issues: Issue[] };

/**
 * A source row as the normalize stage needs it: its values (a CSV record's cells, which the
 * setup's header names) and where it came from, not its source text (the reading thread keeps that
 * for the rejected file), only the text's length, which bounds the size of what the record can
 * send (normalize/record-size.ts).
 */
export type NormalizeRow = Pick<SourceRow, 'file' | 'row' | 'line'> & { chars: number } & (
    { values: Record<string, unknown> } | { cells: readonly string[] }
  );

/** What of a source row goes to the normalize stage (a new object: the row itself keeps its text). */
export const normalizeRowOf = (row: SourceRow): NormalizeRow => {
  const { file, line, cells } = row;
  const chars = row.raw.length;
  return cells
    ? { file, row: row.row, line, chars, cells }
    : { file, row: row.row, line, chars, values: row.values };
};

/** A batch of source rows, and the outcomes in the same order (or why the worker failed). */
export interface BatchRequest {
  id: number;
  rows: NormalizeRow[];
}

export type BatchAnswer = { id: number; outcomes: PreparedOutcome[] } | { id: number; error: string };
