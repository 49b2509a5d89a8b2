/** The report's shapes. */
import type { Issue } from '../core/types.js';

/** Issues about one input column ('' for whole-record issues), with the first few as examples. */
export interface FieldCount {
  field: string;
  count: number;
  examples: Issue[];
}
