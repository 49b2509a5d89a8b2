import type Database from 'better-sqlite3';
import { KeyLookup } from './key-lookup.js';

/** A contact and every identity key a record of it had: its source key, e-mails and phones. */
export interface ContactIdentities {
  contactId: string;
  identities: readonly string[];
}

/**
 * The statements of the `contact_identities` table (migrations.ts): every identity a record
 * had when it was loaded, against its contact, so a record whose key changed between runs (loaded
 * by its phone while its e-mail was bad, then by the fixed e-mail) is found by the identities it
 * had then, not created a second time.
 */
export class IdentityStatements {
  private readonly upsert: Database.Statement;
  private readonly lookup: KeyLookup<[string, string]>;

  constructor(private readonly db: Database.Database) {
    this.upsert = db.prepare(
      `INSERT INTO contact_identities (scope_id, identity, contact_id) VALUES (?, ?, ?)
       ON CONFLICT (scope_id, identity) DO UPDATE SET contact_id = excluded.contact_id`,
    );
    this.lookup = new KeyLookup(
      db,
      (keys) =>
        `SELECT identity, contact_id FROM contact_identities WHERE scope_id = ? AND identity IN (${keys})`,
    );
  }

  /** One transaction for all entries: a later record of an identity takes it over. */
  put(scopeId: string, entries: readonly ContactIdentities[]): void {
    this.db
      .transaction(() => {
        for (const { contactId, identities } of entries)
          for (const identity of identities) this.upsert.run(scopeId, identity, contactId);
      })
      .immediate();
  }

  /** The contact of each identity the ledger knows; others are absent. */
  find(scopeId: string, identities: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    for (const [identity, contactId] of this.lookup.rows([scopeId], identities))
      found.set(identity, contactId);
    return found;
  }
}
