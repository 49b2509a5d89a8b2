import type { Pipeline } from '../../mapping/index.js';
import type { RecordOutcome } from '../record.js';
import type { SourceRow } from '../types.js';

/** What a normalize worker needs to map and normalize rows of one input, sent once at start. */
export interface WorkerSetup {
  pipeline: Pipeline;
  header: string[] | undefined;
  file: string;
  input: number;
  region?: string;
  strict: boolean;
}

/** A batch of source rows, and the outcomes in the same order (or why the worker failed). */
export interface BatchRequest {
  id: number;
  rows: SourceRow[];
}

export type BatchAnswer = { id: number; outcomes: RecordOutcome[] } | { id: number; error: string };
