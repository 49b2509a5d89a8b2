/** The extract stage's shapes. */
import type { Totals } from '../core/types.js';

/** What the extract stage counts (source -> map -> normalize -> dedupe), returned in its result. */
export type ExtractCounts = Pick<Totals, 'read' | 'rejected' | 'duplicates' | 'merged'>;
