import type Database from 'better-sqlite3';
import { ContinuationStatements } from './continuation.js';
import { KeyLookup } from './key-lookup.js';
import { ResolutionStatements } from './resolutions.js';
import { IdentityStatements } from './identities.js';
import { RunEffectStatements } from './run-effects.js';

export type KeyedTable = 'contacts' | 'reminders';
type NamedTable = 'groups' | 'custom_fields';

/** The prepared statements of one database, shared by every scope opened on it. */
export class ScopeStatements {
  readonly upsertContact: Database.Statement;
  readonly deleteContact: Database.Statement;
  /** The empty hash: no write equals it, so the contact's next write is sent. */
  readonly blankContactHash: Database.Statement;
  readonly upsertImage: Database.Statement;
  readonly deleteImage: Database.Statement;
  /** key, image of contact images for many keys. */
  readonly imageLookup: KeyLookup<[string, string]>;
  readonly upsertReminder: Database.Statement;
  readonly upsertGroup: Database.Statement;
  readonly upsertCustomField: Database.Statement;
  readonly selectGroups: Database.Statement;
  readonly selectCustomFields: Database.Statement;
  readonly insertPending: Database.Statement;
  readonly selectPending: Database.Statement;
  /** A pending create without its body: what completing it reads (the body is tens of KB). */
  readonly selectPendingKeys: Database.Statement;
  readonly selectPendingAll: Database.Statement;
  readonly deletePending: Database.Statement;
  readonly selectAnyContact: Database.Statement;
  readonly selectKeyOfId: Database.Statement;
  /** Everything a scope holds, table by table: what forgetTarget deletes. */
  readonly deleteScope: Database.Statement[];
  readonly continuations: ContinuationStatements;
  readonly effects: RunEffectStatements;
  readonly resolutions: ResolutionStatements;
  readonly identities: IdentityStatements;
  /** key, id, hash of a keyed table's rows for many keys. */
  readonly lookups: Record<KeyedTable, KeyLookup<[string, string, string]>>;

  constructor(readonly db: Database.Database) {
    this.upsertContact = db.prepare(
      `INSERT INTO contacts (scope_id, key, contact_id, hash) VALUES (?, ?, ?, ?)
       ON CONFLICT (scope_id, key) DO UPDATE SET contact_id = excluded.contact_id, hash = excluded.hash`,
    );
    this.deleteContact = db.prepare('DELETE FROM contacts WHERE scope_id = ? AND key = ?');
    this.blankContactHash = db.prepare("UPDATE contacts SET hash = '' WHERE scope_id = ? AND key = ?");
    this.upsertImage = db.prepare(
      `INSERT INTO contact_images (scope_id, key, image) VALUES (?, ?, ?)
       ON CONFLICT (scope_id, key) DO UPDATE SET image = excluded.image`,
    );
    this.deleteImage = db.prepare('DELETE FROM contact_images WHERE scope_id = ? AND key = ?');
    this.imageLookup = new KeyLookup<[string, string]>(
      db,
      (keys) => `SELECT key, image FROM contact_images WHERE scope_id = ? AND key IN (${keys})`,
    );
    this.upsertReminder = db.prepare(
      `INSERT INTO reminders (scope_id, key, id, hash) VALUES (?, ?, ?, ?)
       ON CONFLICT (scope_id, key) DO UPDATE SET id = excluded.id, hash = excluded.hash`,
    );
    this.upsertGroup = upsertNamed(db, 'groups');
    this.upsertCustomField = upsertNamed(db, 'custom_fields');
    this.selectGroups = db.prepare('SELECT name, id, hash FROM groups WHERE scope_id = ?');
    this.selectCustomFields = db.prepare('SELECT name, id, hash FROM custom_fields WHERE scope_id = ?');
    this.insertPending = db.prepare(
      `INSERT INTO pending_creates (scope_id, idempotency_key, keys, hashes, body, created_at, run_id)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectPending = db.prepare(
      'SELECT run_id, idempotency_key, keys, hashes, body FROM pending_creates WHERE scope_id = ? AND idempotency_key = ?',
    );
    this.selectPendingKeys = db.prepare(
      'SELECT run_id, keys, hashes FROM pending_creates WHERE scope_id = ? AND idempotency_key = ?',
    );
    this.selectPendingAll = db.prepare(
      'SELECT run_id, idempotency_key, keys, hashes, body FROM pending_creates WHERE scope_id = ? ORDER BY seq',
    );
    this.deletePending = db.prepare('DELETE FROM pending_creates WHERE scope_id = ? AND idempotency_key = ?');
    this.selectAnyContact = db.prepare('SELECT 1 FROM contacts WHERE scope_id = ? LIMIT 1');
    this.selectKeyOfId = db.prepare('SELECT key FROM contacts WHERE scope_id = ? AND contact_id = ? LIMIT 1');
    this.deleteScope = [
      'contacts',
      'reminders',
      'groups',
      'custom_fields',
      'pending_creates',
      'continuations',
      'undone_contacts',
      'resolutions',
      'contact_identities',
      'contact_images',
      'sync_members',
      'key_replays',
    ].map((table) => db.prepare(`DELETE FROM ${table} WHERE scope_id = ?`));
    this.continuations = new ContinuationStatements(db);
    this.effects = new RunEffectStatements(db);
    this.resolutions = new ResolutionStatements(db);
    this.identities = new IdentityStatements(db);
    const lookupIn = (table: KeyedTable, idColumn: string) =>
      new KeyLookup<[string, string, string]>(
        db,
        (keys) => `SELECT key, ${idColumn} AS id, hash FROM ${table} WHERE scope_id = ? AND key IN (${keys})`,
      );
    this.lookups = { contacts: lookupIn('contacts', 'contact_id'), reminders: lookupIn('reminders', 'id') };
  }
}

function upsertNamed(db: Database.Database, table: NamedTable): Database.Statement {
  return db.prepare(
    `INSERT INTO ${table} (scope_id, name, id, hash) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope_id, name) DO UPDATE SET id = excluded.id, hash = excluded.hash`,
  );
}
