import type Database from 'better-sqlite3';
import { SCALAR_FIELDS, columnType, quote } from './contact-columns.js';

export type Db = Database.Database;

const contactScalarColumns = (): string =>
  SCALAR_FIELDS.map((field) => `  ${quote(field)} ${columnType(field)}`).join(',\n');

/** The users, their contacts and each contact's own lists (e-mails, phones). */
const contactTables = (): string => `
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS contacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  full_name_lc TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
${contactScalarColumns()}
);
CREATE INDEX IF NOT EXISTS contacts_user_seq ON contacts(user_id, seq);
CREATE INDEX IF NOT EXISTS contacts_user_full_name ON contacts(user_id, full_name_lc);
CREATE TABLE IF NOT EXISTS contact_emails (
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL,
  email TEXT NOT NULL,
  email_lc TEXT NOT NULL,
  label TEXT,
  ranking REAL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contact_id, email_lc)
);
CREATE INDEX IF NOT EXISTS contact_emails_user_email ON contact_emails(user_id, email_lc);
CREATE TABLE IF NOT EXISTS contact_phones (
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  match_key TEXT NOT NULL,
  phone_number TEXT NOT NULL,
  phone_number_sanitized TEXT,
  country_code TEXT,
  label TEXT,
  ranking REAL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contact_id, match_key)
);
`;

/** Groups and custom fields with the contacts' memberships and values, tags, relations. */
const groupingTables = `
CREATE TABLE IF NOT EXISTS groups (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  emoji TEXT,
  description TEXT,
  color TEXT,
  parent_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS groups_user ON groups(user_id, seq);
CREATE TABLE IF NOT EXISTS group_memberships (
  group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (contact_id, group_id)
);
CREATE INDEX IF NOT EXISTS group_memberships_group ON group_memberships(group_id);
CREATE TABLE IF NOT EXISTS custom_fields (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  field_type TEXT NOT NULL,
  categories TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS custom_fields_user ON custom_fields(user_id, seq);
CREATE TABLE IF NOT EXISTS custom_field_values (
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  field_id TEXT NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
  type TEXT,
  text_value TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contact_id, field_id)
);
CREATE TABLE IF NOT EXISTS contact_tags (
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (contact_id, tag_id)
);
CREATE TABLE IF NOT EXISTS related_contacts (
  source_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  destination_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (source_id, destination_id)
);
CREATE INDEX IF NOT EXISTS related_contacts_destination ON related_contacts(destination_id);
`;

/** Reminders with the contacts they link, and the answers kept for Idempotency-Key. */
const reminderAndKeyTables = `
CREATE TABLE IF NOT EXISTS reminders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  text TEXT NOT NULL,
  due_at_date TEXT NOT NULL,
  due_at_time TEXT,
  is_complete INTEGER NOT NULL DEFAULT 0,
  recurrence TEXT,
  last_completed_at TEXT,
  next_occurrence_at TEXT,
  email_sent INTEGER NOT NULL DEFAULT 0,
  push_notification_sent INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reminders_user ON reminders(user_id, seq);
CREATE TABLE IF NOT EXISTS reminder_contacts (
  reminder_id TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
  contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (reminder_id, contact_id)
);
CREATE INDEX IF NOT EXISTS reminder_contacts_contact ON reminder_contacts(contact_id);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  user_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_age ON idempotency_keys(created_at);
`;

/**
 * Real tables for every resource; every row carries its owner (`user_id`) or hangs off a row that
 * does, and every lookup is scoped by it. `seq` gives a stable creation order for paging.
 */
export const ddl = (): string => contactTables() + groupingTables + reminderAndKeyTables;

/** The tables the service makes: a database holding any other is not ours. */
export const SERVICE_TABLES: ReadonlySet<string> = new Set(
  [...ddl().matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((match) => match[1] as string),
);

/** Adds columns for write fields that a database file created by an older build does not have. */
export function addMissingContactColumns(db: Db): void {
  const existing = new Set(
    (db.prepare('PRAGMA table_info(contacts)').all() as { name: string }[]).map((c) => c.name),
  );
  for (const field of SCALAR_FIELDS) {
    if (!existing.has(field)) db.exec(`ALTER TABLE contacts ADD COLUMN ${quote(field)} ${columnType(field)}`);
  }
}
