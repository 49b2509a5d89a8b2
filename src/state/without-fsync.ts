import type Database from 'better-sqlite3';

/**
 * Runs one commit at `synchronous = NORMAL`: in WAL mode it survives a killed process (the WAL is
 * written before the commit returns) but not a power loss, and costs no fsync. The next FULL
 * commit's fsync covers the whole WAL, so such a commit is never durable later than one after it.
 */
export function withoutFsync(db: Database.Database, commit: () => void): void {
  const level = Number(db.pragma('synchronous', { simple: true }));
  db.pragma('synchronous = NORMAL');
  try {
    commit();
  } finally {
    db.pragma(`synchronous = ${level}`);
  }
}
