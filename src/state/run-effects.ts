import type Database from 'better-sqlite3';

/**
 * What a run did to each contact it created or updated (migrations.ts): the journal an undo
 * works from. An update's row is written before its request leaves (its before-image), a create's
 * in the transaction that records the answered ids, so no crash leaves a change without its row.
 */
export type EffectKind = 'created' | 'updated' | 'group' | 'custom_field';

export interface RunEffect {
  runId: string;
  contactId: string;
  /** A contact the run created or updated, or a group or custom field definition it created. */
  kind: EffectKind;
  /** The record's identity key (a group's or custom field's name). */
  key: string;
  /** Where the record came from ('' and 0 for creates: the create answer knows keys only). */
  file: string;
  row: number;
  /** An update's before-image and what it wrote (src/load/field-changes.ts), as stored. */
  detail?: unknown;
  /** Set once an undo settled the contact; an undo skips what is settled. */
  undo?: UndoMark;
}

/** The outcomes an undo keeps; a failed one is left unsettled so the same command tries again. */
export type UndoOutcome = 'archived' | 'restored' | 'conflicts' | 'notUndone';

export interface UndoMark {
  outcome: UndoOutcome;
  /** The undo run that settled it. */
  undoRunId: string;
  detail?: unknown;
}

export interface UpdateEffect {
  contactId: string;
  key: string;
  file: string;
  row: number;
  detail: unknown;
}

interface EffectRow {
  run_id: string;
  contact_id: string;
  kind: EffectKind;
  key: string;
  file: string;
  row: number;
  detail: string | null;
  undo: string | null;
}

export class RunEffectStatements {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly select: Database.Statement;
  private readonly mark: Database.Statement;
  private readonly forgetArchived: Database.Statement;
  private readonly staleHash: Database.Statement;
  private readonly forgetImage: Database.Statement;
  private readonly insertUndone: Database.Statement;
  private readonly selectUndone: Database.Statement;
  private readonly deleteUndone: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // The first row wins: a resent update keeps the before-image taken before the first send.
    this.insert = db.prepare(
      `INSERT INTO run_effects (run_id, scope_id, contact_id, kind, key, file, row, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, contact_id) DO NOTHING`,
    );
    this.remove = db.prepare('DELETE FROM run_effects WHERE run_id = ? AND contact_id = ? AND undo IS NULL');
    this.select = db.prepare(
      `SELECT run_id, contact_id, kind, key, file, row, detail, undo FROM run_effects
       WHERE run_id = ? AND scope_id = ? ORDER BY seq`,
    );
    this.mark = db.prepare('UPDATE run_effects SET undo = ? WHERE run_id = ? AND contact_id = ?');
    this.forgetArchived = db.prepare(
      'DELETE FROM contacts WHERE scope_id = ? AND key = ? AND contact_id = ?',
    );
    // The hash of what was sent no longer describes the contact: the next run sends the record again.
    this.staleHash = db.prepare(
      `UPDATE contacts SET hash = 'undone' WHERE scope_id = ? AND key = ? AND contact_id = ?`,
    );
    // An undone contact no longer holds what the runs wrote: the next run compares nothing with it.
    this.forgetImage = db.prepare('DELETE FROM contact_images WHERE scope_id = ? AND key = ?');
    this.insertUndone = db.prepare(
      'INSERT INTO undone_contacts (scope_id, contact_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    this.selectUndone = db.prepare('SELECT 1 FROM undone_contacts WHERE scope_id = ? AND contact_id = ?');
    this.deleteUndone = db.prepare('DELETE FROM undone_contacts WHERE scope_id = ?');
  }

  recordCreated(scopeId: string, runId: string, keys: readonly string[], ids: readonly string[]): void {
    keys.forEach((key, i) => this.insert.run(runId, scopeId, ids[i], 'created', key, '', 0, null));
  }

  recordReference(
    scopeId: string,
    runId: string,
    kind: 'group' | 'custom_field',
    id: string,
    name: string,
  ): void {
    this.insert.run(runId, scopeId, id, kind, name, '', 0, null);
  }

  recordUpdates(scopeId: string, runId: string, effects: readonly UpdateEffect[]): void {
    this.db
      .transaction(() => {
        for (const e of effects) {
          this.insert.run(
            runId,
            scopeId,
            e.contactId,
            'updated',
            e.key,
            e.file,
            e.row,
            JSON.stringify(e.detail),
          );
        }
      })
      .immediate();
  }

  drop(runId: string, contactId: string): void {
    this.remove.run(runId, contactId);
  }

  effects(scopeId: string, runId: string): RunEffect[] {
    return (this.select.all(runId, scopeId) as EffectRow[]).map((row) => ({
      runId: row.run_id,
      contactId: row.contact_id,
      kind: row.kind,
      key: row.key,
      file: row.file,
      row: row.row,
      ...(row.detail === null ? {} : { detail: JSON.parse(row.detail) as unknown }),
      ...(row.undo === null ? {} : { undo: JSON.parse(row.undo) as UndoMark }),
    }));
  }

  /** Settles undone contacts and what the ledger says of them, in one transaction. */
  settle(scopeId: string, runId: string, settled: readonly { effect: RunEffect; mark: UndoMark }[]): void {
    this.db
      .transaction(() => {
        for (const { effect, mark } of settled) {
          this.mark.run(JSON.stringify(mark), runId, effect.contactId);
          if (mark.outcome !== 'notUndone') this.forgetImage.run(scopeId, effect.key);
          if (mark.outcome === 'archived') {
            this.forgetArchived.run(scopeId, effect.key, effect.contactId);
            this.insertUndone.run(scopeId, effect.contactId);
          } else if (mark.outcome === 'restored' || mark.outcome === 'conflicts') {
            this.staleHash.run(scopeId, effect.key, effect.contactId);
          }
        }
      })
      .immediate();
  }

  isUndone(scopeId: string, contactId: string): boolean {
    return this.selectUndone.get(scopeId, contactId) !== undefined;
  }

  forgetUndone(scopeId: string): void {
    this.deleteUndone.run(scopeId);
  }
}
