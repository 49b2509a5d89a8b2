import {
  CONTACT_SCALAR_FIELDS,
  type ContactResponse,
  type ContactWrite,
} from '../../core/schemas/contact.js';
import type { LocalContact } from '../../core/schemas/local.js';
import type { WriteLocation } from '../envelope.js';
import { ContactLists } from './contact-lists.js';
import { timeOrderedId } from './ids.js';
import {
  SCALAR_FIELDS,
  columnType,
  decodeScalar,
  encodeScalar,
  quote,
  type SqlValue,
} from './contact-columns.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './schema.js';

/** A `contacts` row as read: the bookkeeping columns plus every scalar write field. */
export interface ContactRow {
  seq: number;
  id: string;
  user_id: number;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

const scalarEntries = (write: Record<string, unknown>): [string, unknown][] =>
  SCALAR_FIELDS.filter((field) => write[field] !== undefined).map((field) => [field, write[field]]);

const lowercase = (value: unknown): string | null => (typeof value === 'string' ? value.toLowerCase() : null);

/** Columns of TEXT affinity: SQLite stores a number written there as its text. */
const TEXT_COLUMNS = new Set<string>(SCALAR_FIELDS.filter((field) => columnType(field) === 'TEXT'));

/** A value as SQLite hands it back from its column, without reading it back. */
const asStored = (field: string, value: SqlValue): SqlValue =>
  typeof value === 'number' && TEXT_COLUMNS.has(field) ? String(value) : value;

export class ContactStore {
  readonly lists: ContactLists;
  private readonly db: Db;
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly deleteStatement;
  private readonly updateStatements = new Map<string, Statement<SqlValue[]>>();

  constructor(db: Db) {
    this.db = db;
    this.lists = new ContactLists(db);
    const columns = ['id', 'user_id', 'full_name_lc', 'created_at', 'updated_at', ...SCALAR_FIELDS];
    this.insertStatement = db.prepare(
      `INSERT INTO contacts (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    this.getStatement = db.prepare('SELECT * FROM contacts WHERE id = ? AND user_id = ?');
    this.listStatement = db.prepare(
      'SELECT * FROM contacts WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    this.deleteStatement = db.prepare('DELETE FROM contacts WHERE id = ? AND user_id = ?');
  }

  /**
   * Creates one contact for the user (call inside a transaction with its siblings). The row is
   * returned as inserted, not read back: a bulk create of 100 used to spend a fifth of its time
   * reading back what it had just written.
   */
  create(userId: number, write: ContactWrite, at: WriteLocation): ContactRow {
    const id = timeOrderedId();
    const now = new Date().toISOString();
    const fields = write as Record<string, unknown>;
    const values: SqlValue[] = [id, userId, lowercase(fields.full_name), now, now];
    for (const field of SCALAR_FIELDS) values.push(encodeScalar(field, fields[field]));
    const { lastInsertRowid } = this.insertStatement.run(...values);
    this.lists.keyed.fresh(id);
    this.lists.apply(userId, id, write, at);
    const row: ContactRow = {
      seq: Number(lastInsertRowid),
      id,
      user_id: userId,
      created_at: now,
      updated_at: now,
    };
    row.full_name_lc = values[2];
    SCALAR_FIELDS.forEach((field, i) => (row[field] = asStored(field, values[5 + i]!)));
    return row;
  }

  get(userId: number, id: string): ContactRow | undefined {
    return this.getStatement.get(id, userId) as ContactRow | undefined;
  }

  /**
   * Partial update: only the fields present change; list fields merge. Returns undefined when the
   * contact is not this user's (nothing is touched then).
   */
  update(userId: number, id: string, write: ContactWrite, at: WriteLocation): ContactRow | undefined {
    return this.merge(userId, id, write, at) ? this.get(userId, id) : undefined;
  }

  /** As `update`, for E1, which answers a count: nothing is read back. */
  merge(userId: number, id: string, write: ContactWrite, at: WriteLocation): boolean {
    if (!this.touch(userId, id, scalarEntries(write as Record<string, unknown>))) return false;
    this.lists.apply(userId, id, write, at);
    return true;
  }

  /** Sets the given scalar fields (and `updated_at`); false when the contact is not this user's. */
  touch(userId: number, id: string, entries: [string, unknown][]): boolean {
    const fields = entries.map(([field]) => field);
    const key = fields.join(',');
    let statement = this.updateStatements.get(key);
    if (!statement) {
      const sets = fields.map((field) => `${quote(field)} = ?`);
      if (fields.includes('full_name')) sets.push('full_name_lc = ?');
      sets.push('updated_at = ?');
      statement = this.db.prepare<SqlValue[]>(
        `UPDATE contacts SET ${sets.join(', ')} WHERE id = ? AND user_id = ?`,
      );
      this.updateStatements.set(key, statement);
    }
    const values: SqlValue[] = entries.map(([field, value]) => encodeScalar(field, value));
    const fullName = entries.find(([field]) => field === 'full_name');
    if (fullName) values.push(lowercase(fullName[1]));
    values.push(new Date().toISOString(), id, userId);
    return statement.run(...values).changes === 1;
  }

  /**
   * Removes the contact and everything hanging off it (its lists, memberships, reminder links,
   * other contacts' relations to it, by the schema's cascades). False when it is not this user's.
   */
  delete(userId: number, id: string): boolean {
    const deleted = this.deleteStatement.run(id, userId).changes === 1;
    if (deleted) this.lists.keyed.invalidate();
    return deleted;
  }

  /** All of the user's contacts in creation order, after `afterSeq`; `limit` rows at most. */
  list(userId: number, afterSeq: number, limit: number): ContactRow[] {
    return this.listStatement.all(userId, afterSeq, limit) as ContactRow[];
  }

  /** docs/api-reference.md's contact response shape. */
  response(row: ContactRow): ContactResponse {
    const out: Record<string, unknown> = { id: row.id };
    for (const field of CONTACT_SCALAR_FIELDS) out[field] = decodeScalar(field, row[field]);
    out.created_at = row.created_at;
    out.updated_at = row.updated_at;
    return out as ContactResponse;
  }

  /** Everything stored for the contact (`/_local/`): scalars under their write names, then lists. */
  local(row: ContactRow): LocalContact {
    const out: Record<string, unknown> = {
      id: row.id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
    for (const field of SCALAR_FIELDS) out[field] = decodeScalar(field, row[field]);
    out.contact_emails = this.lists.emails(row.id);
    out.contact_phone_numbers = this.lists.phones(row.id);
    out.groups_contacts = this.lists.groups(row.id);
    out.custom_fields = this.lists.customFields(row.id);
    out.tags_contacts = this.lists.tags(row.id);
    out.related_contacts = this.lists.related(row.id);
    return out as LocalContact;
  }
}
