import type { StoredSyncEffect, SyncLedger } from './sync-ledger.js';
import type { SentBefore } from './sync-journal.js';
import type { IssueCount } from '../core/types.js';
import type { Continuation } from './continuation.js';
import type { ContactIdentities } from './identities.js';
import type { AdoptedResolutions, Resolution } from './resolutions.js';
import type { RunEffect, UndoMark, UpdateEffect } from './run-effects.js';

export type { Continuation } from './continuation.js';
export type { AdoptedResolutions, Resolution } from './resolutions.js';
export type { EffectKind, RunEffect, UndoMark, UndoOutcome, UpdateEffect } from './run-effects.js';

/**
 * The ledger's public shapes. The ledger remembers, per target and user (a scope), what was loaded
 * where, so reruns send nothing that is unchanged and a crashed run can be resumed without
 * creating anything twice. Every call is synchronous (better-sqlite3) and every multi-row change is
 * one transaction; failures throw ImportError('state_error').
 */

/** What the ledger knows about one loaded thing: its id on the target and the hash last sent. */
export interface LedgerEntry {
  id: string;
  hash: string;
}

/** A contact's ledger row: the contact id on the target and the hash of the write object sent. */
export interface ContactEntry {
  contactId: string;
  hash: string;
}

/**
 * A create chunk recorded before it is sent. `keys[i]` and `hashes[i]` belong to the i-th contact
 * of `body` (the exact request body text), so a resumed run can resend it byte for byte with the
 * same Idempotency-Key and map the answered ids back to identity keys.
 */
export interface PendingCreate {
  /** The run that began it: its completion is journaled under that run (run-effects.ts). */
  runId: string;
  idempotencyKey: string;
  keys: string[];
  hashes: string[];
  body: string;
}

export interface RunStart {
  runId: string;
  scopeId: string;
  pipeline: string;
  inputs: string[];
  dryRun: boolean;
  /** ISO 8601. */
  startedAt: string;
  /** `run --sync NAME`: the sync scope. */
  sync?: string;
  /** The run's folder. */
  outDir?: string;
}

/** One input file as a run found it: the path as given, its size in bytes, the sha256 of its bytes. */
export interface InputFingerprint {
  path: string;
  size: number;
  sha256: string;
}

/**
 * What a non-dry run read and left, stored with the run so the next run of byte-identical inputs
 * can reuse its outcome instead of reading them again (src/run/rerun-shortcut.ts).
 */
export interface RunSnapshot {
  /** Hash of the pipeline definition, the tool version and the outcome-affecting settings. */
  definition: string;
  inputs: InputFingerprint[];
  /** Absolute path of the run's `--out` folder. */
  outDir: string;
  /** The files in `outDir` that hold the run's issues and rejected records, with their sizes. */
  outputs: { name: string; size: number }[];
  /** The issue codes of the run with their counts and one example each (the terminal summary). */
  topIssues: IssueCount[];
}

/** A non-dry run as the ledger holds it. */
export interface LoadRun extends RunSummary {
  /** report.json as stored by finishRun; absent while the run is `running` (or if it crashed). */
  report?: unknown;
  /** Stored by finishRun when the run could fingerprint its inputs; unchecked JSON. */
  snapshot?: unknown;
  /** Another non-dry run of the scope finished after this one started (the two overlapped). */
  overlapped: boolean;
}

/** A run as `findRun` returns it. */
export interface StoredRun extends RunSummary {
  scopeId: string;
  pipeline: string;
  dryRun: boolean;
  report?: unknown;
}

export interface RunSummary {
  runId: string;
  /** `running` until finishRun; then the report's `status` (`completed`, `interrupted`, `aborted`). */
  status: string;
  startedAt: string;
  finishedAt?: string;
}

/** The contacts the ledger resolved identity keys to, with the hash of what was last sent to each. */
export interface ScopeContacts {
  /** Ledger rows of the given identity keys; keys the ledger does not know are absent. Any count. */
  getContacts(keys: readonly string[]): Map<string, ContactEntry>;
  /** Upserts all entries in one transaction. */
  putContacts(entries: readonly { key: string; contactId: string; hash: string }[]): void;
  /** The contact no longer exists on the target: the next run resolves the key afresh. */
  forgetContact(key: string): void;
  /** Whether the ledger knows any contact of this scope. */
  hasContacts(): boolean;
  /** How many contacts the ledger knows in this scope. */
  contactCount(): number;
  /** The target ids of every contact the ledger knows in this scope. */
  contactIds(): Set<string>;
  /**
   * The target no longer holds what the ledger says (reset, database deleted): forgets every
   * contact, reminder, group, custom field and pending create of this scope, in one transaction.
   */
  forgetTarget(): void;
}

/** Every identity (key, e-mails, phones) a loaded record had, against its contact. */
export interface ScopeIdentities {
  /** Remembers every identity (key, e-mails, phones) the loaded records had, against their contacts. */
  putIdentities(entries: readonly ContactIdentities[]): void;
  /** The contact of each identity any loaded record had; identities never seen are absent. Any count. */
  contactsByIdentity(identities: readonly string[]): Map<string, string>;
}

/** What the runs wrote to each contact (load/known-image.ts), so an unchanged write is not sent. */
export interface KnownImages {
  /**
   * What this ledger's runs wrote to each contact, merged (load/known-image.ts), as JSON text;
   * keys without one are absent. Any count.
   */
  getImages(keys: readonly string[]): Map<string, string>;
  /** Upserts the images in one transaction; written only once the target applied the write. */
  putImages(entries: readonly { key: string; image: string }[]): void;
  /**
   * Forgets what the runs wrote to the contacts of these identity keys (their hash and image): the
   * contacts lost values by other means (a sync run removed or cleared them), so the next write of
   * theirs is sent whole, not called unchanged. The keys stay resolved to their contacts.
   */
  forgetWrites(keys: readonly string[]): void;
}

/** Whether the target honours `Idempotency-Key`, asked once per scope (load/key-replay.ts). */
export interface KeyHonouring {
  /**
   * Whether the target honours `Idempotency-Key` (an `Idempotent-Replayed: true` answer seen for a
   * repeated key), or was seen not to; undefined when never seen.
   */
  keysHonoured(): boolean | undefined;
  recordKeysHonoured(honoured: boolean): void;
}

/** The unfinished run a continuation resolves as (load/continuation.ts). */
export interface Continuations {
  /**
   * The unfinished run that found the target empty: its continuation resolves as it
   * did while the target holds only what this ledger wrote. Undefined once a run completed.
   */
  continuation(): Continuation | undefined;
  /** A run found the target empty: its continuations may skip the searches it skipped. */
  beginContinuation(continuation: Continuation): void;
  /** A run of the scope completed: nothing is left to continue. No-op when absent. */
  endContinuation(): void;
}

/** What resolution decided for records not sent yet, kept for the run that continues. */
export interface ScopeResolutions {
  /**
   * Records what resolution decided for records of `runId` not sent yet, in one
   * transaction; a key resolved again replaces its row.
   */
  recordResolutions(runId: string, resolutions: readonly Resolution[]): void;
  /**
   * `runId` continues an unfinished run: every resolution of the scope becomes its own. Returns the
   * run that made them and how many there are; undefined when there are none.
   */
  adoptResolutions(runId: string): AdoptedResolutions | undefined;
  /** The resolutions `runId` holds for `keys`; keys without one are absent. Any count. */
  getResolutions(runId: string, keys: readonly string[]): Map<string, Resolution>;
  /** A run of the scope completed (or the target was found empty): no resolution is kept. */
  clearResolutions(): void;
}

/** The group and custom field definitions the runs created on the target. */
export interface KnownReferences {
  /** Group name -> id and hash of the definition sent. */
  getGroups(): Map<string, LedgerEntry>;
  putGroup(name: string, id: string, hash: string): void;
  /** Custom field definition name -> id and hash of the definition sent. */
  getCustomFields(): Map<string, LedgerEntry>;
  putCustomField(name: string, id: string, hash: string): void;
}

/** The reminders the runs created on the target. */
export interface KnownReminders {
  /** Reminder key (for example identity key + reminder index) -> reminder id and hash. Any count. */
  getReminders(keys: readonly string[]): Map<string, LedgerEntry>;
  putReminder(key: string, id: string, hash: string): void;
}

/** The create journal: a chunk recorded before it is sent, completed with the ids answered. */
export interface CreateJournal {
  /**
   * Records a create chunk before it is sent. Calling it again with the same key and the same chunk
   * is a no-op (a resumed run may repeat itself); the same key with a different chunk throws.
   */
  beginCreate(chunk: PendingCreate): void;
  /**
   * The service answered the create: `ids[i]` is the id of the contact of `keys[i]`. Puts the
   * contacts and removes the pending row in one transaction. Throws when the key is not pending or
   * the id count differs from the chunk.
   */
  completeCreate(idempotencyKey: string, ids: readonly string[]): void;
  /** Creates recorded but not completed or abandoned, oldest first: what a resumed run resends. */
  pendingCreates(): PendingCreate[];
  /** Nothing was created for this key (for example a 400 answer); forget it. No-op when absent. */
  abandonCreate(idempotencyKey: string): void;
}

/** What each run created and updated, for `undo`. */
export interface RunJournal {
  /** Journals a run's updates (before-images) before they are sent; a row already there is kept. */
  recordUpdates(runId: string, effects: readonly UpdateEffect[]): void;
  /** Journals a group or custom field definition the run created (an undo lists it as left). */
  recordReference(runId: string, kind: 'group' | 'custom_field', id: string, name: string): void;
  /** The update was refused: it changed nothing, so there is nothing to undo. */
  dropUpdate(runId: string, contactId: string): void;
  /** What the run created and updated in this scope, in the order it happened. */
  runEffects(runId: string): RunEffect[];
  /**
   * Records what an undo did, in one transaction: archived contacts are forgotten and remembered
   * as undone (a later run creates them again), restored ones get a hash no write has.
   */
  settleUndo(runId: string, settled: readonly { effect: RunEffect; mark: UndoMark }[]): void;
  /** An undo archived this contact. */
  isUndone(contactId: string): boolean;
}

/**
 * The ledger's view of one scope (one user on one target): every concern above. Its users take only
 * the parts they need.
 */
export interface LedgerScope
  extends
    ScopeContacts,
    ScopeIdentities,
    KnownImages,
    KeyHonouring,
    Continuations,
    ScopeResolutions,
    KnownReferences,
    KnownReminders,
    CreateJournal,
    RunJournal {
  readonly scopeId: string;
}

export interface Ledger {
  /** The SQLite file. */
  readonly file: string;
  scope(scopeId: string): LedgerScope;
  /** Records a run as `running`. A runId can be started once. */
  startRun(run: RunStart): void;
  /**
   * Stores the run's report.json object and its status (`report.status`, else `completed`), and
   * its snapshot when given.
   */
  finishRun(runId: string, report: unknown, snapshot?: RunSnapshot): void;
  /** The scope's most recent runs, newest first. */
  lastRuns(scopeId: string, limit: number): RunSummary[];
  /** The scope's most recently started non-dry run, whatever its status; undefined when none. */
  lastLoadRun(scopeId: string): LoadRun | undefined;
  /** Any run by id, in any scope; undefined when the ledger has none. */
  findRun(runId: string): StoredRun | undefined;
  /** Sync scope `sync` (`run --sync NAME`) of a ledger scope: its members and journal. */
  syncScope(scopeId: string, sync: string): SyncLedger;
  /** What sync runs did in run `runId`, in order (for `undo`). */
  syncEffects(runId: string): StoredSyncEffect[];
  /** Marks sync effects settled by an undo. */
  settleSyncEffects(settled: readonly { seq: number; mark: unknown }[]): void;
  /** The scope members' `sent` before run `runId` changed them, not yet put back by an undo. */
  syncSentBefore(runId: string): SentBefore[];
  /** Puts those back (unless a later run changed them) and marks them settled by `mark`. */
  restoreSyncSent(scopeId: string, entries: readonly SentBefore[], mark: unknown): void;
  /** Every run the ledger holds, in any scope, newest first (`contact-import runs`). */
  allRuns(): StoredRunRow[];
  /** Closes the database; further calls throw. Closing twice is a no-op. */
  close(): void;
}

/** A run as the ledger holds it, for listing. */
export interface StoredRunRow {
  runId: string;
  pipeline: string;
  inputs: string[];
  dryRun: boolean;
  status: string;
  startedAt: string;
  finishedAt?: string;
  /** report.json as stored; absent while it runs. */
  report?: unknown;
  sync?: string;
  outDir?: string;
}

export interface OpenLedgerOptions {
  /** The state directory (`--state`, default `.contact-import/`); created when missing. */
  dir: string;
}
