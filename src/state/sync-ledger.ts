import type Database from 'better-sqlite3';
import { KeyLookup } from './key-lookup.js';
import { guarded } from './sqlite-errors.js';
import { ARCHIVING_KIND, EFFECT_KINDS, SENT_KIND, sentDetail, type SentValues } from './sync-journal.js';

export type { SentValues };

export interface SyncMember {
  contactId: string;
  key: string;
  sent: SentValues;
  archived: boolean;
}

/**
 * A member as read back: `sentJson` the stored text of `sent`, parsed only when read. A weekly
 * run compares most members' text with what it would send now and never needs the values.
 */
export interface StoredSyncMember extends SyncMember {
  readonly sentJson: string;
}

class StoredMember implements StoredSyncMember {
  private parsed: SentValues | undefined;

  constructor(
    readonly contactId: string,
    readonly key: string,
    readonly sentJson: string,
    readonly archived: boolean,
  ) {}

  get sent(): SentValues {
    return (this.parsed ??= JSON.parse(this.sentJson) as SentValues);
  }
}

/** A staged key the ledger scope resolved: its contact, and whose sync scope holds it. */
export interface ResolvedKey {
  contactId: string;
  member?: StoredSyncMember;
  other?: true;
}

export type SyncEffectKind = 'archived' | 'unarchived' | 'removed' | 'cleared';

/** A member joined or refreshed with what a run sent it. */
export interface SentChange extends Omit<SyncMember, 'archived'> {
  /**
   * What the scope held before, journaled for undo: null when the run makes it a member,
   * undefined when `sent` does not change (an unarchive alone).
   */
  before?: SentValues | null;
}

/** An archive sent whose answer no run recorded: `seq` is its journal row. */
export interface PendingArchive {
  seq: number;
  contactId: string;
}

/** One thing a sync run did to a contact; `field`/`value`: the list or field and what it held. */
export interface SyncEffect {
  contactId: string;
  kind: SyncEffectKind;
  field: string;
  value: string;
}

export interface StoredSyncEffect extends SyncEffect {
  seq: number;
  sync: string;
  /** Set once an undo settled it. */
  undo?: unknown;
}

/**
 * The ledger's record of one sync scope (`run --sync NAME`) of a ledger scope: its members, what
 * was last sent to each, which are archived, and what each sync run did (for `undo`).
 */
export class SyncLedger {
  private readonly owners: KeyLookup<[string, string, string, string, number]>;
  private readonly resolved: KeyLookup<
    [string, string, string | null, string | null, string | null, number | null]
  >;
  private readonly upsert: Database.Statement;
  private readonly archivedFlag: Database.Statement;
  private readonly insertEffect: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    readonly scopeId: string,
    readonly sync: string,
  ) {
    this.owners = new KeyLookup(
      db,
      (ids) =>
        `SELECT contact_id, sync, key, sent, archived FROM sync_members WHERE scope_id = ? AND contact_id IN (${ids})`,
    );
    this.resolved = new KeyLookup(
      db,
      (keys) =>
        `SELECT c.key, c.contact_id, m.sync, m.key, m.sent, m.archived FROM contacts c
         LEFT JOIN sync_members m ON m.scope_id = c.scope_id AND m.contact_id = c.contact_id
         WHERE c.scope_id = ? AND c.key IN (${keys})`,
    );
    this.upsert = db.prepare(
      `INSERT INTO sync_members (scope_id, sync, contact_id, key, sent, archived) VALUES (?, ?, ?, ?, ?, 0)
       ON CONFLICT (scope_id, contact_id) DO UPDATE SET key = excluded.key, sent = excluded.sent, archived = 0
       WHERE sync_members.sync = excluded.sync`,
    );
    this.archivedFlag = db.prepare(
      'UPDATE sync_members SET archived = ? WHERE scope_id = ? AND sync = ? AND contact_id = ?',
    );
    this.insertEffect = db.prepare(
      `INSERT INTO sync_effects (run_id, scope_id, sync, contact_id, kind, detail) VALUES (?, ?, ?, ?, ?, ?)`,
    );
  }

  /**
   * Members of this scope, archived or not, in no set order: the keys only (a run holds them all).
   * Read in the table's own order (its primary key starts with the scope): the index by key would
   * cost a table lookup a member for `archived`; `+sync` keeps the planner off it.
   */
  *memberKeys(): Generator<{ contactId: string; key: string; archived: boolean }> {
    const rows = this.db
      .prepare('SELECT contact_id, key, archived FROM sync_members WHERE scope_id = ? AND +sync = ?')
      .raw(true)
      .iterate(this.scopeId, this.sync) as Iterable<[string, string, number]>;
    for (const [contactId, key, archived] of rows) yield { contactId, key, archived: archived === 1 };
  }

  /** How many members are not archived: what `--max-archive N%` is a share of. */
  activeCount(): number {
    return guarded(this.file, 'count sync members', () => {
      const row = this.db
        .prepare('SELECT count(*) AS n FROM sync_members WHERE scope_id = ? AND sync = ? AND archived = 0')
        .get(this.scopeId, this.sync) as { n: number };
      return row.n;
    });
  }

  /**
   * The members among `contactIds`, by contact id: `mine` those of this scope, `others` the ids
   * another sync scope holds (never touched by this one).
   */
  lookUp(contactIds: readonly string[]): { mine: Map<string, StoredSyncMember>; others: Set<string> } {
    return guarded(this.file, 'read sync members', () => {
      const mine = new Map<string, StoredSyncMember>();
      const others = new Set<string>();
      for (const [contactId, sync, key, sent, archived] of this.owners.rows([this.scopeId], contactIds)) {
        if (sync !== this.sync) others.add(contactId);
        else mine.set(contactId, new StoredMember(contactId, key, sent, archived === 1));
      }
      return { mine, others };
    });
  }

  /**
   * The staged identity `keys` the ledger scope knows a contact for, each with its contact id and
   * that contact's membership: one query a LOOKUP_CHUNK of keys for both (the ledger scope's
   * `contacts` joined with `sync_members`). `member` is set when this scope holds the contact;
   * `other` when another sync scope does (never touched by this one).
   */
  resolve(keys: readonly string[]): Map<string, ResolvedKey> {
    return guarded(this.file, 'read sync members', () => {
      const found = new Map<string, ResolvedKey>();
      for (const [key, contactId, sync, memberKey, sent, archived] of this.resolved.rows(
        [this.scopeId],
        keys,
      )) {
        if (sync === null) found.set(key, { contactId });
        else if (sync !== this.sync) found.set(key, { contactId, other: true });
        else
          found.set(key, {
            contactId,
            member: new StoredMember(contactId, memberKey!, sent!, archived === 1),
          });
      }
      return found;
    });
  }

  /**
   * Members joined or refreshed with what was sent (and no longer archived), with the effects that
   * got them there, in one commit: the next run compares with exactly what the target was sent.
   */
  commit(runId: string, members: readonly SentChange[], effects: readonly SyncEffect[]): void {
    guarded(this.file, 'record sync members', () => {
      this.db
        .transaction(() => {
          for (const m of members) {
            const sent = JSON.stringify(m.sent);
            this.upsert.run(this.scopeId, this.sync, m.contactId, m.key, sent);
            if (m.before !== undefined)
              this.insertEffect.run(
                runId,
                this.scopeId,
                this.sync,
                m.contactId,
                SENT_KIND,
                sentDetail(m.before ?? undefined, sent),
              );
          }
          this.journal(runId, effects);
        })
        .immediate();
    });
  }

  /**
   * Journals archives about to be sent (committed with an fsync before the request leaves): a
   * run killed before their answer is recorded leaves them pending, and the next run checks the
   * target before sending them again. Returns their journal rows, for `markArchived`.
   */
  beginArchive(runId: string, contactIds: readonly string[]): number[] {
    return guarded(this.file, 'record archives in flight', () =>
      this.db
        .transaction(() =>
          contactIds.map(
            (contactId) =>
              this.insertEffect.run(
                runId,
                this.scopeId,
                this.sync,
                contactId,
                ARCHIVING_KIND,
                JSON.stringify({ field: 'is_archived', value: 'false' }),
              ).lastInsertRowid as number,
          ),
        )
        .immediate(),
    );
  }

  /** Archives of this scope sent by a run that never recorded their answer (it was killed). */
  pendingArchives(): PendingArchive[] {
    return guarded(this.file, 'read archives in flight', () =>
      (
        this.db
          .prepare(
            `SELECT seq, contact_id FROM sync_effects WHERE scope_id = ? AND sync = ? AND kind = '${ARCHIVING_KIND}' ORDER BY seq`,
          )
          .all(this.scopeId, this.sync) as { seq: number; contact_id: string }[]
      ).map((row) => ({ seq: row.seq, contactId: row.contact_id })),
    );
  }

  /** Pending archives known to be settled otherwise (the contact is in the inputs again). */
  dropPending(seqs: readonly number[]): void {
    if (seqs.length === 0) return;
    guarded(this.file, 'record archives in flight', () => {
      const drop = this.db.prepare(`DELETE FROM sync_effects WHERE seq = ? AND kind = '${ARCHIVING_KIND}'`);
      this.db.transaction(() => seqs.forEach((seq) => drop.run(seq))).immediate();
    });
  }

  /**
   * Members archived (or brought back) on the target, with the journal of it, in one commit;
   * `pending`: the journal rows of those archives in flight (beginArchive), now settled.
   */
  markArchived(
    runId: string,
    contactIds: readonly string[],
    archived: boolean,
    pending: readonly number[] = [],
  ): void {
    guarded(this.file, 'record archived members', () => {
      const drop = this.db.prepare(`DELETE FROM sync_effects WHERE seq = ? AND kind = '${ARCHIVING_KIND}'`);
      this.db
        .transaction(() => {
          for (const seq of pending) drop.run(seq);
          for (const id of contactIds) this.archivedFlag.run(archived ? 1 : 0, this.scopeId, this.sync, id);
          this.journal(
            runId,
            contactIds.map((contactId) => ({
              contactId,
              kind: archived ? 'archived' : 'unarchived',
              field: 'is_archived',
              value: String(!archived),
            })),
          );
        })
        .immediate();
    });
  }

  /** The archived flags alone, with no journal (an undo putting a member back as it was). */
  setArchived(contactIds: readonly string[], archived: boolean): void {
    guarded(this.file, 'record archived members', () => {
      this.db
        .transaction(() => {
          for (const id of contactIds) this.archivedFlag.run(archived ? 1 : 0, this.scopeId, this.sync, id);
        })
        .immediate();
    });
  }

  private journal(runId: string, effects: readonly SyncEffect[]): void {
    for (const e of effects) {
      this.insertEffect.run(
        runId,
        this.scopeId,
        this.sync,
        e.contactId,
        e.kind,
        JSON.stringify({ field: e.field, value: e.value }),
      );
    }
  }
}

/** What sync runs did in a run (any scope), in order; for `undo`. */
export const syncEffectsOf = (db: Database.Database, file: string, runId: string): StoredSyncEffect[] =>
  guarded(file, 'read the sync journal', () =>
    (
      db
        .prepare(
          `SELECT seq, sync, contact_id, kind, detail, undo FROM sync_effects WHERE run_id = ? AND kind IN ${EFFECT_KINDS} ORDER BY seq`,
        )
        .all(runId) as {
        seq: number;
        sync: string;
        contact_id: string;
        kind: SyncEffectKind;
        detail: string;
        undo: string | null;
      }[]
    ).map((row) => {
      const detail = JSON.parse(row.detail) as { field: string; value: string };
      return {
        seq: row.seq,
        sync: row.sync,
        contactId: row.contact_id,
        kind: row.kind,
        field: detail.field,
        value: detail.value,
        ...(row.undo !== null ? { undo: JSON.parse(row.undo) as unknown } : {}),
      };
    }),
  );

/** Marks journaled sync effects as settled by an undo (never sent again). */
export const settleSyncEffects = (
  db: Database.Database,
  file: string,
  settled: readonly { seq: number; mark: unknown }[],
): void =>
  guarded(file, 'record a sync undo', () => {
    const update = db.prepare('UPDATE sync_effects SET undo = ? WHERE seq = ?');
    db.transaction(() => {
      for (const s of settled) update.run(JSON.stringify(s.mark), s.seq);
    }).immediate();
  });
