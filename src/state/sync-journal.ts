import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { guarded } from './sqlite-errors.js';

/** What a sync run sent for one contact: the base the next run finds removals and clears against. */
export interface SentValues {
  emails: string[];
  /** Each phone as sent (`phone_number`), with its label when it had one. */
  phones: { phone_number: string; label?: string }[];
  /** Scalar fields with a value, by field name. */
  fields: Record<string, string>;
}

/**
 * The sync journal's rows that are bookkeeping, not effects on the target: they share
 * `sync_effects` (its `kind` column is free text) so no schema change is needed, and the effect
 * readers leave them out.
 * - `sent`: a member's `sent` before a run changed it (`detail.value` its JSON, empty when the run
 *   made it a member; `detail.after` a digest of what the run left), so undoing the run puts the
 *   scope's base back as well as the target, unless a later run changed it since.
 * - `archiving`: an archive sent and not yet known to be applied; becomes `archived` once it is.
 */
export const SENT_KIND = 'sent';
export const ARCHIVING_KIND = 'archiving';

/** The effect kinds a reader of effects sees (every other kind is bookkeeping). */
export const EFFECT_KINDS = "('archived', 'unarchived', 'removed', 'cleared')";

/** A member's `sent` before run `runId` changed it; undefined `before`: the run made it a member. */
export interface SentBefore {
  seq: number;
  sync: string;
  contactId: string;
  before: SentValues | undefined;
  /** sentDigest of what the run left. */
  after: string;
}

/** A short digest of a member's stored `sent` text: enough to tell whether a later run changed it. */
export const sentDigest = (sentJson: string): string =>
  createHash('sha256').update(sentJson).digest('base64url').slice(0, 16);

/** The journal row's detail for a member whose `sent` goes from `before` to `afterJson`. */
export const sentDetail = (before: SentValues | undefined, afterJson: string): string =>
  JSON.stringify({
    field: SENT_KIND,
    value: before === undefined ? '' : JSON.stringify(before),
    after: sentDigest(afterJson),
  });

/** The `sent` rows of a run no undo settled yet, in order. */
export const sentBeforeOf = (db: Database.Database, file: string, runId: string): SentBefore[] =>
  guarded(file, 'read the sync journal', () =>
    (
      db
        .prepare(
          `SELECT seq, sync, contact_id, detail FROM sync_effects
           WHERE run_id = ? AND kind = '${SENT_KIND}' AND undo IS NULL ORDER BY seq`,
        )
        .all(runId) as { seq: number; sync: string; contact_id: string; detail: string }[]
    ).map((row) => {
      const { value, after } = JSON.parse(row.detail) as { value: string; after: string };
      return {
        seq: row.seq,
        sync: row.sync,
        contactId: row.contact_id,
        before: value === '' ? undefined : (JSON.parse(value) as SentValues),
        after,
      };
    }),
  );

/**
 * Puts members' `sent` back as it was before the run (a member the run made leaves the scope)
 * and marks those rows settled, in one commit. A member a later run changed keeps what that run
 * sent. Only `sent`: the archived flag is the effects'.
 */
export const restoreSentBefore = (
  db: Database.Database,
  file: string,
  scopeId: string,
  entries: readonly SentBefore[],
  mark: unknown,
): void => {
  if (entries.length === 0) return;
  guarded(file, 'restore sync members', () => {
    const current = db.prepare(
      'SELECT sent FROM sync_members WHERE scope_id = ? AND sync = ? AND contact_id = ?',
    );
    const put = db.prepare(
      'UPDATE sync_members SET sent = ? WHERE scope_id = ? AND sync = ? AND contact_id = ?',
    );
    const drop = db.prepare('DELETE FROM sync_members WHERE scope_id = ? AND sync = ? AND contact_id = ?');
    const settle = db.prepare('UPDATE sync_effects SET undo = ? WHERE seq = ?');
    const markText = JSON.stringify(mark);
    db.transaction(() => {
      for (const e of entries) {
        const row = current.get(scopeId, e.sync, e.contactId) as { sent: string } | undefined;
        if (row === undefined || sentDigest(row.sent) !== e.after) {
          settle.run(markText, e.seq);
          continue;
        }
        if (e.before === undefined) drop.run(scopeId, e.sync, e.contactId);
        else put.run(JSON.stringify(e.before), scopeId, e.sync, e.contactId);
        settle.run(markText, e.seq);
      }
    }).immediate();
  });
};
