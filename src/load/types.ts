/** The load stage's shapes: what it counts and the changes it made. */
import type { Totals } from '../core/types.js';

/** What the load stage counts (resolve -> send), returned in its result; `rejected`: too large to send. */
export type LoadCounts = Pick<
  Totals,
  'created' | 'updated' | 'unchanged' | 'failed' | 'pending' | 'rejected' | 'merged'
>;

/** One changed scalar field of an updated contact: a row of changes.csv, a line of report.html. */
export interface ChangeRow {
  file: string;
  row: number;
  contactId: string;
  field: string;
  old: string;
  new: string;
}
