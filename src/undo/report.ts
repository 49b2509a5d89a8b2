import type { SyncUndoCounts } from './sync-undo.js';
import type { IssueCount } from '../core/types.js';
import type { FieldCount } from '../report/types.js';
import type { RunStatus } from '../report/run-report.js';
import { baseModel } from '../report/html/run-model.js';
import type {
  ChangesModel,
  ProgressSample,
  RequestCounts,
  UndoReportModel,
  UndoTotalsModel,
} from '../report/html/model.js';

export type UndoTotals = UndoTotalsModel;

/**
 * An undo's report.json (docs/design.md wave 2): `kind: "undo"`, `undoOf`, totals {read, restored,
 * archived, conflicts, notUndone, failed}, `requests`, `exitCode`. Every journaled effect of the
 * run (contact created or updated, definition created) is read and ends in exactly one outcome,
 * unless the undo stopped early.
 */
export interface UndoReport {
  kind: 'undo';
  runId: string;
  undoOf: string;
  dryRun: boolean;
  target: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  totals: UndoTotals;
  /** Of the totals, the outcomes an earlier undo of the same run reached: nothing was sent for them. */
  earlier: number;
  /** Definitions the run created, left on the target by name. */
  left: { groups: string[]; customFields: string[] };
  requests: RequestCounts & { byEndpoint: Record<string, RequestCounts> };
  exitCode: number;
  exitReason: string;
  /** The undo of a sync run: what it took back of the archives, removals and clears. */
  sync?: SyncUndoCounts;
  error?: { code: string; message: string };
}

export const emptyUndoTotals = (): UndoTotals => ({
  read: 0,
  restored: 0,
  archived: 0,
  conflicts: 0,
  notUndone: 0,
  failed: 0,
});

/** One sentence for `exitReason` and the summary's last line. */
export const undoExitReason = (report: Omit<UndoReport, 'exitReason'>): string => {
  if (report.error) return `Undo stopped: ${report.error.message}`;
  if (report.status === 'interrupted') return 'Undo interrupted: the same command finishes it.';
  const { conflicts, failed } = report.totals;
  const would = report.dryRun ? 'would be ' : '';
  if (failed > 0) return `${failed} ${would}failed: the same command tries them again.`;
  if (conflicts > 0)
    return `${conflicts} ${would}in conflict: changed on the service since the run; kept (issues.csv).`;
  return report.dryRun ? 'Dry run: nothing was changed.' : 'Undo completed.';
};

export const undoModel = (
  report: UndoReport,
  extras: {
    codes: IssueCount[];
    fields: FieldCount[];
    issuesPath: string;
    samples: ProgressSample[];
    changes: ChangesModel;
  },
): UndoReportModel => ({
  kind: 'undo',
  ...baseModel(report, extras),
  undoOf: report.undoOf,
  totals: report.totals,
  changes: extras.changes,
});
