/**
 * One row of outcomes.csv (report/outcomes-file.ts): what became of a record read, or of a contact
 * an undo took back. Here, on the bottom floor, because the load and undo stages hand them over.
 */
/** What became of one record read (a run), or of one contact a run touched (an undo). */
export type RecordOutcomeName =
  | 'created'
  | 'updated'
  | 'unchanged'
  | 'duplicate'
  | 'merged'
  | 'rejected'
  | 'failed'
  | 'pending'
  | 'would_create'
  | 'would_update';

export type UndoOutcomeName =
  | 'archived'
  | 'restored'
  | 'conflict'
  | 'not_undone'
  | 'already_undone'
  | 'would_archive'
  | 'would_restore'
  | 'would_conflict';

export interface OutcomeRow {
  file: string;
  /** 1-based data row in `file` (as in issues.csv); 0 when unknown (a create answered by key only). */
  row: number;
  /** 1-based line where the record starts; 0 when unknown. */
  line: number;
  outcome: RecordOutcomeName | UndoOutcomeName;
  contactId?: string;
  /** The record's identity key (`email:ada@example.com`), '' for a record that has none. */
  identity?: string;
  reason?: string;
}

/** Where the stages hand the outcome of each record as they settle it. */
export interface OutcomeSink {
  add(row: OutcomeRow): void;
}
