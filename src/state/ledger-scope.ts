import type Database from 'better-sqlite3';
import { ImportError } from '../core/errors/index.js';
import { assertCreateAnswer } from './create-answer.js';
import { ContactImages } from './contact-images.js';
import { assertChunkShape, sameChunk, toPending, type PendingRow } from './pending-chunks.js';
import { withoutFsync } from './without-fsync.js';
import { guarded } from './sqlite-errors.js';
import type { Continuation } from './continuation.js';
import type { AdoptedResolutions, Resolution } from './resolutions.js';
import type { RunEffect, UndoMark, UpdateEffect } from './run-effects.js';
import { ScopeStatements, type KeyedTable } from './scope-statements.js';
import type { ContactIdentities } from './identities.js';
import type { ContactEntry, LedgerEntry, LedgerScope, PendingCreate } from './types.js';

export { ScopeStatements };

export class SqliteLedgerScope implements LedgerScope {
  private readonly db: Database.Database;
  private readonly images: ContactImages;

  constructor(
    private readonly statements: ScopeStatements,
    readonly scopeId: string,
    private readonly file: string,
  ) {
    this.db = statements.db;
    this.images = new ContactImages(statements, scopeId, file);
  }

  getContacts(keys: readonly string[]): Map<string, ContactEntry> {
    return guarded(this.file, 'read contacts', () => {
      const found = new Map<string, ContactEntry>();
      this.lookupKeys('contacts', keys, (key, id, hash) => found.set(key, { contactId: id, hash }));
      return found;
    });
  }

  putContacts(entries: readonly { key: string; contactId: string; hash: string }[]): void {
    // An update the service applied is idempotent: resent after a power loss, it changes nothing.
    withoutFsync(this.db, () => this.putContactsNow(entries));
  }

  private putContactsNow(entries: readonly { key: string; contactId: string; hash: string }[]): void {
    guarded(this.file, 'write contacts', () => {
      this.db
        .transaction(() => {
          for (const entry of entries) {
            this.statements.upsertContact.run(this.scopeId, entry.key, entry.contactId, entry.hash);
          }
        })
        .immediate();
    });
  }

  putIdentities(entries: readonly ContactIdentities[]): void {
    if (entries.length === 0) return;
    // Lost to a power loss, an identity is only not found by the next run's other keys.
    withoutFsync(this.db, () =>
      guarded(this.file, 'write identities', () => this.statements.identities.put(this.scopeId, entries)),
    );
  }

  contactsByIdentity(identities: readonly string[]): Map<string, string> {
    return guarded(this.file, 'read identities', () =>
      this.statements.identities.find(this.scopeId, identities),
    );
  }

  forgetContact(key: string): void {
    guarded(this.file, 'forget a contact', () => {
      this.statements.deleteContact.run(this.scopeId, key);
      this.statements.deleteImage.run(this.scopeId, key);
    });
  }

  getImages(keys: readonly string[]): Map<string, string> {
    return this.images.get(keys);
  }

  putImages(entries: readonly { key: string; image: string }[]): void {
    this.images.put(entries);
  }

  forgetWrites(keys: readonly string[]): void {
    if (keys.length === 0) return;
    // Committed in full (fsync) before the change is sent: a hash or image that outlived it would
    // call a later write of the values it took away unchanged, and they would stay away.
    guarded(this.file, 'forget what was written', () => {
      this.db
        .transaction(() => {
          for (const key of keys) {
            this.statements.blankContactHash.run(this.scopeId, key);
            this.statements.deleteImage.run(this.scopeId, key);
          }
        })
        .immediate();
    });
  }

  hasContacts(): boolean {
    return guarded(
      this.file,
      'count contacts',
      () => this.statements.selectAnyContact.get(this.scopeId) !== undefined,
    );
  }

  forgetTarget(): void {
    guarded(this.file, 'forget the target', () => {
      this.db
        .transaction(() => {
          for (const statement of this.statements.deleteScope) statement.run(this.scopeId);
        })
        .immediate();
    });
  }

  contactCount(): number {
    return guarded(this.file, 'count contacts', () =>
      this.statements.continuations.contactCount(this.scopeId),
    );
  }

  contactIds(): Set<string> {
    return guarded(this.file, 'read contact ids', () =>
      this.statements.continuations.contactIds(this.scopeId),
    );
  }

  keysHonoured(): boolean | undefined {
    return guarded(this.file, 'read whether the target honours keys', () =>
      this.statements.continuations.keysHonoured(this.scopeId),
    );
  }

  recordKeysHonoured(honoured: boolean): void {
    guarded(this.file, 'record whether the target honours keys', () =>
      this.statements.continuations.recordKeysHonoured(this.scopeId, honoured),
    );
  }

  continuation(): Continuation | undefined {
    return guarded(this.file, 'read the continuation', () => this.statements.continuations.get(this.scopeId));
  }

  beginContinuation(continuation: Continuation): void {
    guarded(this.file, 'record the continuation', () =>
      this.statements.continuations.begin(this.scopeId, continuation),
    );
  }

  endContinuation(): void {
    guarded(this.file, 'end the continuation', () => this.statements.continuations.end(this.scopeId));
  }

  recordResolutions(runId: string, resolutions: readonly Resolution[]): void {
    if (resolutions.length === 0) return;
    // Lost to a power loss, a resolution costs its search again: no fsync (docs/reliability.md).
    withoutFsync(this.db, () =>
      guarded(this.file, 'record resolutions', () =>
        this.statements.resolutions.record(this.scopeId, runId, resolutions),
      ),
    );
  }

  adoptResolutions(runId: string): AdoptedResolutions | undefined {
    return guarded(this.file, 'take over resolutions', () =>
      this.statements.resolutions.adopt(this.scopeId, runId),
    );
  }

  getResolutions(runId: string, keys: readonly string[]): Map<string, Resolution> {
    return guarded(this.file, 'read resolutions', () =>
      this.statements.resolutions.get(this.scopeId, runId, keys),
    );
  }

  clearResolutions(): void {
    guarded(this.file, 'clear resolutions', () => this.statements.resolutions.clear(this.scopeId));
  }

  getGroups(): Map<string, LedgerEntry> {
    return guarded(this.file, 'read groups', () => this.named(this.statements.selectGroups));
  }

  putGroup(name: string, id: string, hash: string): void {
    guarded(this.file, 'write a group', () => this.statements.upsertGroup.run(this.scopeId, name, id, hash));
  }

  getCustomFields(): Map<string, LedgerEntry> {
    return guarded(this.file, 'read custom fields', () => this.named(this.statements.selectCustomFields));
  }

  putCustomField(name: string, id: string, hash: string): void {
    guarded(this.file, 'write a custom field', () =>
      this.statements.upsertCustomField.run(this.scopeId, name, id, hash),
    );
  }

  getReminders(keys: readonly string[]): Map<string, LedgerEntry> {
    return guarded(this.file, 'read reminders', () => {
      const found = new Map<string, LedgerEntry>();
      this.lookupKeys('reminders', keys, (key, id, hash) => found.set(key, { id, hash }));
      return found;
    });
  }

  putReminder(key: string, id: string, hash: string): void {
    guarded(this.file, 'write a reminder', () =>
      this.statements.upsertReminder.run(this.scopeId, key, id, hash),
    );
  }

  /** On disk (synchronous = FULL) before the chunk's request leaves: load/send.ts sends it after. */
  beginCreate(chunk: PendingCreate): void {
    assertChunkShape(chunk, this.file);
    guarded(this.file, 'record a create', () => {
      this.db.transaction(() => this.insertPendingOnce(chunk, new Date().toISOString())).immediate();
    });
  }

  private insertPendingOnce(chunk: PendingCreate, at: string): void {
    const existing = this.pendingRow(chunk.idempotencyKey);
    if (existing) {
      if (sameChunk(toPending(existing), chunk)) return;
      throw new ImportError(
        'state_error',
        `The ledger ${this.file} already holds a different pending create under Idempotency-Key ${chunk.idempotencyKey}; expected each key to name one chunk.`,
        { file: this.file },
      );
    }
    this.statements.insertPending.run(
      this.scopeId,
      chunk.idempotencyKey,
      JSON.stringify(chunk.keys),
      JSON.stringify(chunk.hashes),
      chunk.body,
      at,
      chunk.runId,
    );
  }

  /**
   * Lost to a power loss, this commit leaves the create pending, and the rerun resends it under
   * the same Idempotency-Key: the service answers with the same ids. Only beginCreate, which must
   * be on disk before the request leaves, pays for an fsync (docs/reliability.md, "Durability").
   */
  completeCreate(idempotencyKey: string, ids: readonly string[]): void {
    withoutFsync(this.db, () => this.completeCreateNow(idempotencyKey, ids));
  }

  private completeCreateNow(idempotencyKey: string, ids: readonly string[]): void {
    guarded(this.file, 'complete a create', () => {
      this.db
        .transaction(() => {
          const row = this.statements.selectPendingKeys.get(this.scopeId, idempotencyKey) as
            Pick<PendingRow, 'run_id' | 'keys' | 'hashes'> | undefined;
          if (!row) {
            throw new ImportError(
              'state_error',
              `The ledger ${this.file} has no pending create under Idempotency-Key ${idempotencyKey}; expected beginCreate before completeCreate.`,
              { file: this.file },
            );
          }
          const keys = JSON.parse(row.keys) as string[];
          const hashes = JSON.parse(row.hashes) as string[];
          assertCreateAnswer(
            { idempotencyKey, ids, keys },
            (id) => (this.statements.selectKeyOfId.get(this.scopeId, id) as { key: string } | undefined)?.key,
          );
          keys.forEach((key, index) => {
            this.statements.upsertContact.run(this.scopeId, key, ids[index], hashes[index]);
          });
          // Journaled with the ids, so an undo of the run that began the create archives them.
          this.statements.effects.recordCreated(this.scopeId, row.run_id, keys, ids);
          this.statements.deletePending.run(this.scopeId, idempotencyKey);
        })
        .immediate();
    });
  }

  pendingCreates(): PendingCreate[] {
    return guarded(this.file, 'read pending creates', () =>
      (this.statements.selectPendingAll.all(this.scopeId) as PendingRow[]).map(toPending),
    );
  }

  abandonCreate(idempotencyKey: string): void {
    guarded(this.file, 'abandon a create', () =>
      this.statements.deletePending.run(this.scopeId, idempotencyKey),
    );
  }

  recordUpdates(runId: string, effects: readonly UpdateEffect[]): void {
    if (effects.length === 0) return;
    guarded(this.file, 'journal updates', () =>
      this.statements.effects.recordUpdates(this.scopeId, runId, effects),
    );
  }

  recordReference(runId: string, kind: 'group' | 'custom_field', id: string, name: string): void {
    guarded(this.file, 'journal a definition', () =>
      this.statements.effects.recordReference(this.scopeId, runId, kind, id, name),
    );
  }

  dropUpdate(runId: string, contactId: string): void {
    guarded(this.file, 'journal a failed update', () => this.statements.effects.drop(runId, contactId));
  }

  runEffects(runId: string): RunEffect[] {
    return guarded(this.file, 'read the run journal', () =>
      this.statements.effects.effects(this.scopeId, runId),
    );
  }

  settleUndo(runId: string, settled: readonly { effect: RunEffect; mark: UndoMark }[]): void {
    if (settled.length === 0) return;
    guarded(this.file, 'record an undo', () => this.statements.effects.settle(this.scopeId, runId, settled));
  }

  isUndone(contactId: string): boolean {
    return guarded(this.file, 'read undone contacts', () =>
      this.statements.effects.isUndone(this.scopeId, contactId),
    );
  }

  private pendingRow(idempotencyKey: string): PendingRow | undefined {
    return this.statements.selectPending.get(this.scopeId, idempotencyKey) as PendingRow | undefined;
  }

  private lookupKeys(
    table: KeyedTable,
    keys: readonly string[],
    onRow: (key: string, id: string, hash: string) => void,
  ): void {
    for (const [key, id, hash] of this.statements.lookups[table].rows([this.scopeId], keys))
      onRow(key, id, hash);
  }

  private named(statement: Database.Statement): Map<string, LedgerEntry> {
    const rows = statement.all(this.scopeId) as { name: string; id: string; hash: string }[];
    return new Map(rows.map((row) => [row.name, { id: row.id, hash: row.hash }]));
  }
}
