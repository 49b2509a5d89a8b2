import type Database from 'better-sqlite3';
import { ImportError } from '../core/errors/index.js';

/**
 * Schema versions live in PRAGMA user_version. MIGRATIONS[i] takes a database from version i to
 * version i + 1; a new version is a new entry appended here, never an edit of an old one. Each
 * migration runs in its own transaction together with the version bump, so a crash mid-migration
 * leaves the previous version intact. Version 1 is the whole layout of 1.0: ledgers written before
 * it are refused (assertOurs), not upgraded.
 */
export type Migration = (db: Database.Database) => void;

/** Marks the file as ours (PRAGMA application_id): "CIL2" as a 32-bit integer. */
export const LEDGER_APPLICATION_ID = 0x43494c32;

/** "CIL1": a ledger of a contact-import before 1.0, whose layout this version does not read. */
const PRE_1_0_APPLICATION_ID = 0x43494c31;

const SCHEMA = `
  CREATE TABLE contacts (
    scope_id   TEXT NOT NULL,
    key        TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    hash       TEXT NOT NULL,
    PRIMARY KEY (scope_id, key)
  ) WITHOUT ROWID;
  -- Each id a create answers is checked against the ledger: an id that already belongs to another
  -- identity is a target answering wrongly (src/state/create-answer.ts).
  CREATE INDEX contacts_by_id ON contacts (scope_id, contact_id);

  CREATE TABLE groups (
    scope_id TEXT NOT NULL,
    name     TEXT NOT NULL,
    id       TEXT NOT NULL,
    hash     TEXT NOT NULL,
    PRIMARY KEY (scope_id, name)
  ) WITHOUT ROWID;

  CREATE TABLE custom_fields (
    scope_id TEXT NOT NULL,
    name     TEXT NOT NULL,
    id       TEXT NOT NULL,
    hash     TEXT NOT NULL,
    PRIMARY KEY (scope_id, name)
  ) WITHOUT ROWID;

  CREATE TABLE reminders (
    scope_id TEXT NOT NULL,
    key      TEXT NOT NULL,
    id       TEXT NOT NULL,
    hash     TEXT NOT NULL,
    PRIMARY KEY (scope_id, key)
  ) WITHOUT ROWID;

  -- Create chunks recorded before sending; seq orders them oldest first. run_id: the run that
  -- began the chunk, so its completion is journaled with it (run_effects).
  CREATE TABLE pending_creates (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    scope_id        TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    keys            TEXT NOT NULL,  -- JSON array of identity keys, in body order
    hashes          TEXT NOT NULL,  -- JSON array of content hashes, in body order
    body            TEXT NOT NULL,  -- the exact request body
    created_at      TEXT NOT NULL,
    run_id          TEXT NOT NULL,
    UNIQUE (scope_id, idempotency_key)
  );

  CREATE TABLE runs (
    run_id      TEXT PRIMARY KEY,
    scope_id    TEXT NOT NULL,
    pipeline    TEXT NOT NULL,
    inputs      TEXT NOT NULL,      -- JSON array of input paths
    dry_run     INTEGER NOT NULL,
    status      TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    report      TEXT,               -- the report.json object
    -- What a non-dry run read and left (input fingerprints, pipeline fingerprint, out dir and its
    -- files), so a rerun of byte-identical inputs can skip reading them: JSON RunSnapshot
    -- (src/state/types.ts).
    snapshot    TEXT,
    sync        TEXT,               -- the run's sync scope, NULL without --sync
    out_dir     TEXT                -- the run's folder (report.json), for contact-import runs
  );
  CREATE INDEX runs_by_scope ON runs (scope_id, started_at);

  -- What an unfinished run knew when it began. One row per scope while a run that found the
  -- target empty has not completed: its continuation, finding only contacts this ledger wrote,
  -- resolves as that run did (no searches). Deleted when a run of the scope completes.
  CREATE TABLE continuations (
    scope_id         TEXT PRIMARY KEY,
    run_id           TEXT NOT NULL,     -- the run that found the target empty
    started_at       TEXT NOT NULL
  ) WITHOUT ROWID;

  -- What each run did to each contact (run-effects.ts), the journal \`undo\` works from.
  CREATE TABLE run_effects (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id     TEXT NOT NULL,
    scope_id   TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    kind       TEXT NOT NULL,     -- created | updated
    key        TEXT NOT NULL,     -- identity key
    file       TEXT NOT NULL,
    row        INTEGER NOT NULL,
    detail     TEXT,              -- JSON: an update's before-image, what it wrote, list additions
    undo       TEXT,              -- JSON UndoMark once an undo settled it
    UNIQUE (run_id, contact_id)
  );
  -- The contacts an undo archived, which a later run's search must not take for the record (it
  -- creates them again).
  CREATE TABLE undone_contacts (
    scope_id   TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    PRIMARY KEY (scope_id, contact_id)
  ) WITHOUT ROWID;

  -- What resolution decided for the records of a run that were not sent yet, so the same command
  -- after a stop sends them as decided instead of searching for each again. Written as resolution
  -- decides, taken over by the run that continues (its run id), deleted when a run of the scope
  -- completes.
  CREATE TABLE resolutions (
    scope_id   TEXT NOT NULL,
    run_id     TEXT NOT NULL,
    key        TEXT NOT NULL,     -- identity key
    hash       TEXT NOT NULL,     -- the write's hash when resolved: a changed record is resolved again
    contact_id TEXT,              -- the contact it updates; NULL: a create
    email      TEXT,              -- the e-mail searched (found by, or a create's first)
    found      TEXT               -- JSON: the contact as the search answered it (the before-image)
  );
  -- A rowid table: rows (a before-image is most of a row) are appended, only this narrow index is
  -- updated in key order; a WITHOUT ROWID table keyed like it writes whole rows in key order, many
  -- more pages a commit.
  CREATE UNIQUE INDEX resolutions_by_key ON resolutions (scope_id, run_id, key);

  -- Every identity a loaded record had (its key, e-mails, phones) against its contact
  -- (identities.ts), so a record whose key changed between runs is found by the others.
  CREATE TABLE contact_identities (
    scope_id   TEXT NOT NULL,
    identity   TEXT NOT NULL,     -- an identity key: key:, email:, phone: or name:
    contact_id TEXT NOT NULL,
    PRIMARY KEY (scope_id, identity)
  ) WITHOUT ROWID;

  -- What this ledger's runs wrote to each contact, merged under the merge rules
  -- (load/known-image.ts), so a record whose write the contact already holds (a rerun whose only
  -- difference is empty cells) is \`unchanged\` and not sent. A rowid table: an image is most of a
  -- row.
  CREATE TABLE contact_images (
    scope_id TEXT NOT NULL,
    key      TEXT NOT NULL,     -- identity key, as in contacts
    image    TEXT NOT NULL,     -- JSON KnownImage
    PRIMARY KEY (scope_id, key)
  );

  -- Sync scopes (\`run --sync NAME\`). A contact belongs to at most one scope of a ledger scope
  -- (the first sync run that created or matched it); \`sent\` is what the last sync run sent for it
  -- (its e-mails, phones and scalar fields), the base the next run's removals and clears are found
  -- against. \`sync_effects\` journals what a sync run archived, unarchived, removed and cleared,
  -- for \`undo\`; apart from run_effects because one contact may be both updated and cleared by
  -- one run.
  CREATE TABLE sync_members (
    scope_id   TEXT NOT NULL,
    sync       TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    key        TEXT NOT NULL,      -- identity key when it joined
    sent       TEXT NOT NULL,      -- JSON SentValues (src/state/sync-ledger.ts)
    archived   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope_id, contact_id)
  ) WITHOUT ROWID;
  CREATE INDEX sync_members_by_scope ON sync_members (scope_id, sync, key);
  CREATE TABLE sync_effects (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id     TEXT NOT NULL,
    scope_id   TEXT NOT NULL,
    sync       TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    kind       TEXT NOT NULL,      -- archived | unarchived | removed | cleared
    detail     TEXT NOT NULL,      -- JSON: the field and the value it held
    undo       TEXT                -- JSON once an undo settled it
  );
  CREATE INDEX sync_effects_by_run ON sync_effects (run_id);

  -- Whether a target honours \`Idempotency-Key\`, per scope (target and user), as its answers
  -- showed it: \`honoured\` 1 once an \`Idempotent-Replayed: true\` answer came for a repeated key,
  -- 0 when a repeat was answered without it. A continuation resends the creates a crash left
  -- pending under their keys only to a target recorded 1 (load/key-replay.ts).
  CREATE TABLE key_replays (
    scope_id TEXT PRIMARY KEY,
    honoured INTEGER NOT NULL,
    seen_at  TEXT NOT NULL
  ) WITHOUT ROWID;
`;

export const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(SCHEMA);
    db.pragma(`application_id = ${LEDGER_APPLICATION_ID}`);
  },
];

/**
 * Brings the database to `migrations.length`. Throws ImportError('state_error') when the file was
 * written by a newer version of the tool, or is a SQLite database that is not a ledger.
 */
export function migrate(
  db: Database.Database,
  file: string,
  migrations: readonly Migration[] = MIGRATIONS,
): void {
  const target = migrations.length;
  const current = userVersion(db);
  // Whose file it is first: a pre-1.0 ledger's version is no measure of this layout's.
  if (current === 0) assertEmpty(db, file);
  else assertOurs(db, file);
  if (current > target) {
    throw new ImportError(
      'state_error',
      `The ledger ${file} has schema version ${current}, written by a newer contact-import; this version reads up to ${target}. Upgrade contact-import or use another --state directory.`,
      { file },
    );
  }

  for (let version = current; version < target; version++) {
    const step = migrations[version]!;
    // IMMEDIATE: two processes opening a fresh ledger at once must not both migrate it.
    db.transaction(() => {
      if (userVersion(db) !== version) return; // another process migrated it meanwhile
      step(db);
      db.pragma(`user_version = ${version + 1}`);
    }).immediate();
  }
}

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function assertEmpty(db: Database.Database, file: string): void {
  const row = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'").get() as {
    n: number;
  };
  if (row.n > 0) {
    throw new ImportError(
      'state_error',
      `${file} is a SQLite database with ${row.n} tables or indexes but no ledger schema version; expected a contact-import ledger or no file. Use another --state directory.`,
      { file },
    );
  }
}

function assertOurs(db: Database.Database, file: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId === PRE_1_0_APPLICATION_ID) {
    throw new ImportError(
      'state_error',
      `${file} is a ledger of a contact-import before 1.0, whose layout this version does not read; its runs cannot be continued or undone by this version. Use another --state directory.`,
      { file },
    );
  }
  if (applicationId !== LEDGER_APPLICATION_ID) {
    throw new ImportError(
      'state_error',
      `${file} is a SQLite database of another application (application_id ${applicationId}); expected a contact-import ledger. Use another --state directory.`,
      { file },
    );
  }
}
