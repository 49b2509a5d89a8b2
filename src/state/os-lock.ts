import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import Database from 'better-sqlite3';

/**
 * An OS-level lock on one file, through SQLite's own locking: an open write transaction holds
 * SQLite's RESERVED lock, a POSIX fcntl lock that the operating system drops when the process dies,
 * however it dies (`kill -9` included). The file holds no data. A second connection, in this
 * process or another, cannot take it while it is held. Node has no flock of its own, and
 * better-sqlite3 is already a dependency.
 *
 * Beside the lock file, `<file>.json` names the holder for the messages of those who wait or give
 * up; the holder writes it right after locking and removes it right before unlocking.
 */
export interface LockHolder {
  pid: number;
  runId: string;
  /** ISO 8601: when the holder's run started. */
  since: string;
  host: string;
  /** What the lock guards, when a lock file serves several things (a target gate: its scope). */
  scope?: string;
}

export interface HeldLock {
  readonly holder: LockHolder;
  /** Idempotent. The process dying releases it as well. */
  release(): void;
}

export type LockAttempt = { held: HeldLock } | { busy: true };

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

const noteOf = (file: string): string => `${file}.json`;

/**
 * The lock on `file` alone, with no note: its connection (ROLLBACK and close it to release), or
 * undefined when someone holds it. Never waits; other failures throw as they are.
 */
export const holdFile = (file: string): Database.Database | undefined => {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { timeout: 0 });
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (error) {
    db?.close();
    if (isBusy(error)) return undefined;
    throw error;
  }
};

/** Takes the lock on `file` if no one holds it; never waits. Other failures throw as they are. */
export const tryLock = (file: string, run: { runId: string; since: Date; scope?: string }): LockAttempt => {
  const db = holdFile(file);
  if (!db) return { busy: true };
  const holder: LockHolder = {
    pid: process.pid,
    runId: run.runId,
    since: run.since.toISOString(),
    host: hostname(),
    ...(run.scope !== undefined ? { scope: run.scope } : {}),
  };
  const note = noteOf(file);
  writeFileSync(`${note}.${process.pid}.tmp`, `${JSON.stringify(holder)}\n`);
  renameSync(`${note}.${process.pid}.tmp`, note);
  const held = db;
  return {
    held: {
      holder,
      release: () => {
        if (!held.open) return;
        // The note goes first, while the lock is still held: the next holder's note is never removed.
        rmSync(note, { force: true });
        held.exec('ROLLBACK');
        held.close();
      },
    },
  };
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
};

const readNote = (file: string): LockHolder | undefined => {
  try {
    const holder = JSON.parse(readFileSync(noteOf(file), 'utf8')) as LockHolder;
    return typeof holder.pid === 'number' && typeof holder.runId === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
};

/** How long to wait for a new holder to name itself (it writes its note right after locking). */
const NOTE_WAIT_MS = 1_000;

/**
 * Who holds the lock on `file`, by its note. A note of a process that is gone is stale (its holder
 * died; the new one has not written its note yet): waited out briefly, then undefined.
 */
export const lockHolder = async (file: string): Promise<LockHolder | undefined> => {
  const deadline = Date.now() + NOTE_WAIT_MS;
  for (;;) {
    const holder = readNote(file);
    const plausible = holder !== undefined && (holder.host !== hostname() || alive(holder.pid));
    if (plausible) return holder;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** `run R (pid P, since S)`, with the host when it is another machine's. */
export const describeHolder = (holder: LockHolder | undefined): string =>
  holder
    ? `run ${holder.runId} (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`
    : 'another run (it has not named itself yet)';
