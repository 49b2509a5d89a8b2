import { makeFolder } from '../core/make-folder.js';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeIoProblem, ImportError } from '../core/errors/index.js';
import { ScopeStatements, SqliteLedgerScope } from './ledger-scope.js';
import { migrate } from './migrations.js';
import { guarded } from './sqlite-errors.js';
import { settleSyncEffects, syncEffectsOf, SyncLedger, type StoredSyncEffect } from './sync-ledger.js';
import { restoreSentBefore, sentBeforeOf, type SentBefore } from './sync-journal.js';
import type {
  Ledger,
  LedgerScope,
  LoadRun,
  OpenLedgerOptions,
  RunSnapshot,
  RunStart,
  RunSummary,
  StoredRun,
  StoredRunRow,
} from './types.js';

export const LEDGER_FILE = 'ledger.sqlite';

/** How long a write waits for another process holding the ledger (two runs on one --state). */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens (creating when missing) `<dir>/ledger.sqlite` and brings its schema up to date.
 *
 * Durability: WAL journal with synchronous=FULL. WAL alone keeps the file consistent when the
 * process is killed at any instant (a transaction is in the file entirely or not at all). FULL
 * adds an fsync of the WAL at every commit, so a commit also survives a power loss or OS crash.
 * That matters here: a create's Idempotency-Key is committed before the request is sent, and with
 * NORMAL a power loss could roll back that commit after the service had created the contacts,
 * so the rerun would create them again. Commits that a rerun can redo from the service (a
 * create's answered ids, an update's entry) skip the fsync (`withoutFsync` in ledger-scope.ts):
 * one fsync per create chunk, not two (docs/reliability.md, "Durability").
 */
export function openLedger(options: OpenLedgerOptions): Ledger {
  const file = path.join(options.dir, LEDGER_FILE);
  try {
    makeFolder(options.dir);
  } catch (error) {
    throw new ImportError(
      'state_error',
      `Cannot create the state directory ${options.dir}: ${describeIoProblem(error, options.dir, '--state') ?? `${(error as Error).message}; expected a writable directory (--state)`}.`,
      { file },
      { cause: error },
    );
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // A chunk's commit touches about a hundred scattered pages of the contacts' keys; checkpointing
    // every 1,000 pages (the default) wrote each page back again every few chunks; every 10,000
    // (about 40 MB of WAL) a completed create costs markedly less (bench/README.md). The WAL file
    // is cut back to 64 MB after a checkpoint, in case
    // a reader held one back and it grew past that.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    migrate(db, file);
    return new SqliteLedger(db, file);
  } catch (error) {
    db?.close();
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      'state_error',
      `Cannot open the ledger ${file}: ${(error as Error).message}; expected a writable contact-import ledger or no file (--state).`,
      { file },
      { cause: error },
    );
  }
}

interface RunRow {
  run_id: string;
  status: string;
  started_at: string;
  finished_at: string | null;
}

interface LoadRunRow extends RunRow {
  report: string | null;
  snapshot: string | null;
  overlapped: number;
}

class SqliteLedger implements Ledger {
  private readonly statements: ScopeStatements;
  private readonly insertRun: Database.Statement;
  private readonly updateRun: Database.Statement;
  private readonly selectRuns: Database.Statement;
  private readonly selectLastLoad: Database.Statement;
  private readonly selectRun: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    readonly file: string,
  ) {
    this.statements = new ScopeStatements(db);
    this.insertRun = db.prepare(
      `INSERT INTO runs (run_id, scope_id, pipeline, inputs, dry_run, status, started_at, sync, out_dir)
       VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?)`,
    );
    this.updateRun = db.prepare(
      'UPDATE runs SET status = ?, finished_at = ?, report = ?, snapshot = ? WHERE run_id = ?',
    );
    this.selectRuns = db.prepare(
      `SELECT run_id, status, started_at, finished_at FROM runs WHERE scope_id = ?
       ORDER BY started_at DESC, rowid DESC LIMIT ?`,
    );
    // Overlapped: another non-dry run finished after this one started. Runs that never finished
    // and started earlier (a crash, later resumed) do not count: their pending creates were
    // resumed by the runs after them.
    this.selectLastLoad = db.prepare(
      `SELECT r.run_id, r.status, r.started_at, r.finished_at, r.report, r.snapshot,
              EXISTS (SELECT 1 FROM runs o WHERE o.scope_id = r.scope_id AND o.dry_run = 0
                        AND o.run_id <> r.run_id AND o.finished_at > r.started_at) AS overlapped
       FROM runs r WHERE r.scope_id = ? AND r.dry_run = 0
       ORDER BY r.started_at DESC, r.rowid DESC LIMIT 1`,
    );
    this.selectRun = db.prepare(
      `SELECT run_id, scope_id, pipeline, dry_run, status, started_at, finished_at, report
       FROM runs WHERE run_id = ?`,
    );
  }

  findRun(runId: string): StoredRun | undefined {
    return guarded(this.file, `read run ${runId}`, () => {
      const row = this.selectRun.get(runId) as
        (RunRow & { scope_id: string; pipeline: string; dry_run: number; report: string | null }) | undefined;
      if (!row) return undefined;
      return {
        runId: row.run_id,
        scopeId: row.scope_id,
        pipeline: row.pipeline,
        dryRun: row.dry_run === 1,
        status: row.status,
        startedAt: row.started_at,
        ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
        ...(row.report === null ? {} : { report: parseJson(row.report) }),
      };
    });
  }

  scope(scopeId: string): LedgerScope {
    if (scopeId.length === 0) {
      throw new ImportError(
        'state_error',
        'A ledger scope id is empty; expected the value of scopeId(target, apiKey).',
      );
    }
    return new SqliteLedgerScope(this.statements, scopeId, this.file);
  }

  startRun(run: RunStart): void {
    guarded(this.file, `record the start of run ${run.runId}`, () => {
      this.insertRun.run(
        run.runId,
        run.scopeId,
        run.pipeline,
        JSON.stringify(run.inputs),
        run.dryRun ? 1 : 0,
        run.startedAt,
        run.sync ?? null,
        run.outDir ?? null,
      );
    });
  }

  finishRun(runId: string, report: unknown, snapshot?: RunSnapshot): void {
    guarded(this.file, `record the end of run ${runId}`, () => {
      const fields = typeof report === 'object' && report !== null ? (report as Record<string, unknown>) : {};
      const status = typeof fields.status === 'string' ? fields.status : 'completed';
      const finishedAt = typeof fields.finishedAt === 'string' ? fields.finishedAt : new Date().toISOString();
      const result = this.updateRun.run(
        status,
        finishedAt,
        JSON.stringify(report) ?? null,
        snapshot ? JSON.stringify(snapshot) : null,
        runId,
      );
      if (result.changes === 0) {
        throw new ImportError(
          'state_error',
          `The ledger ${this.file} has no run ${runId}; expected startRun before finishRun.`,
          { file: this.file },
        );
      }
    });
  }

  lastRuns(scopeId: string, limit: number): RunSummary[] {
    return guarded(this.file, 'read runs', () => {
      const rows = this.selectRuns.all(scopeId, Math.max(0, Math.floor(limit))) as RunRow[];
      return rows.map((row) => ({
        runId: row.run_id,
        status: row.status,
        startedAt: row.started_at,
        ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
      }));
    });
  }

  lastLoadRun(scopeId: string): LoadRun | undefined {
    return guarded(this.file, 'read the last run', () => {
      const row = this.selectLastLoad.get(scopeId) as LoadRunRow | undefined;
      if (!row) return undefined;
      return {
        runId: row.run_id,
        status: row.status,
        startedAt: row.started_at,
        ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
        ...(row.report === null ? {} : { report: parseJson(row.report) }),
        ...(row.snapshot === null ? {} : { snapshot: parseJson(row.snapshot) }),
        overlapped: row.overlapped === 1,
      };
    });
  }

  syncScope(scopeId: string, sync: string): SyncLedger {
    return new SyncLedger(this.db, this.file, scopeId, sync);
  }

  syncEffects(runId: string): StoredSyncEffect[] {
    return syncEffectsOf(this.db, this.file, runId);
  }

  settleSyncEffects(settled: readonly { seq: number; mark: unknown }[]): void {
    if (settled.length > 0) settleSyncEffects(this.db, this.file, settled);
  }

  syncSentBefore(runId: string): SentBefore[] {
    return sentBeforeOf(this.db, this.file, runId);
  }

  restoreSyncSent(scopeId: string, entries: readonly SentBefore[], mark: unknown): void {
    restoreSentBefore(this.db, this.file, scopeId, entries, mark);
  }

  allRuns(): StoredRunRow[] {
    return guarded(this.file, 'read runs', () =>
      (
        this.db
          .prepare(
            `SELECT run_id, pipeline, inputs, dry_run, status, started_at, finished_at, report, sync, out_dir
             FROM runs ORDER BY started_at DESC, rowid DESC`,
          )
          .all() as {
          run_id: string;
          pipeline: string;
          inputs: string;
          dry_run: number;
          status: string;
          started_at: string;
          finished_at: string | null;
          report: string | null;
          sync: string | null;
          out_dir: string | null;
        }[]
      ).map((row) => ({
        runId: row.run_id,
        pipeline: row.pipeline,
        inputs: (parseJson(row.inputs) as string[] | undefined) ?? [],
        dryRun: row.dry_run === 1,
        status: row.status,
        startedAt: row.started_at,
        ...(row.finished_at === null ? {} : { finishedAt: row.finished_at }),
        ...(row.report === null ? {} : { report: parseJson(row.report) }),
        ...(row.sync === null ? {} : { sync: row.sync }),
        ...(row.out_dir === null ? {} : { outDir: row.out_dir }),
      })),
    );
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Stored JSON that no longer parses (a hand-edited ledger) reads as absent, never as a crash. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
