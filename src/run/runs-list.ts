import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Totals } from '../core/types.js';
import { LEDGER_FILE, openLedger, type StoredRunRow } from '../state/index.js';

/** One run as `contact-import runs` lists it: what a scheduler's log needs to tell how it went. */
export interface RunListing {
  runId: string;
  startedAt: string;
  finishedAt: string | null;
  /** An undo is `undo` whether dry or not; `dryRun` tells. */
  command: 'run' | 'dry run' | 'undo';
  dryRun: boolean;
  pipeline: string | null;
  /** The sync scope (`--sync NAME`), null for other runs. */
  sync: string | null;
  /** The input files; for an undo, the run it took back. */
  inputs: string[];
  /** report.json's totals; null while a run is running or when it stopped before writing them. */
  totals: Partial<Totals> | Record<string, number> | null;
  /** `running` while it runs (or when it was killed), else report.json's status. */
  status: string;
  exitCode: number | null;
  /** The run's folder (report.json), null for runs recorded before it was kept. */
  out: string | null;
}

/** The pipeline name the ledger records an undo under (undo/locate.ts). */
const UNDO_PIPELINE = 'undo';

const listingOf = (row: StoredRunRow): RunListing => {
  const report = (row.report ?? {}) as { kind?: string; totals?: Record<string, number>; exitCode?: number };
  const undo = report.kind === 'undo' || row.pipeline === UNDO_PIPELINE;
  return {
    runId: row.runId,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt ?? null,
    command: undo ? 'undo' : row.dryRun ? 'dry run' : 'run',
    dryRun: row.dryRun,
    pipeline: undo ? null : row.pipeline,
    sync: row.sync ?? null,
    inputs: row.inputs,
    totals: report.totals ?? null,
    status: row.status,
    exitCode: typeof report.exitCode === 'number' ? report.exitCode : null,
    out: row.outDir ?? null,
  };
};

/**
 * The runs a state directory holds, newest first, every target and user. A directory with no
 * ledger holds none (nothing is created to say so).
 */
export const listRuns = (stateDir: string): RunListing[] => {
  if (!existsSync(join(stateDir, LEDGER_FILE))) return [];
  const ledger = openLedger({ dir: stateDir });
  try {
    return ledger.allRuns().map(listingOf);
  } finally {
    ledger.close();
  }
};
