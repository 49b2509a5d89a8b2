import type Database from 'better-sqlite3';
import type { Db } from './schema.js';

/**
 * The SQL of a contact's list tables. Inserts take their position from the caller (the list's
 * next position, held in memory), never from a `max(position)` scan per row. Positional
 * parameters: a bulk write runs the inserts up to ~150,000 times in one request.
 */
const LIST_SQL = {
  insertEmail: `INSERT INTO contact_emails (contact_id, user_id, email, email_lc, label, ranking, position)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
  updateEmail: `UPDATE contact_emails SET label = coalesce(?, label), ranking = coalesce(?, ranking)
       WHERE contact_id = ? AND email_lc = ?`,
  deleteEmails: 'DELETE FROM contact_emails WHERE contact_id = ?',
  emails: 'SELECT email, label, ranking FROM contact_emails WHERE contact_id = ? ORDER BY position',
  insertPhone: `INSERT INTO contact_phones (contact_id, match_key, phone_number, phone_number_sanitized, country_code, label, ranking, position)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  updatePhone: `UPDATE contact_phones SET phone_number = ?, country_code = coalesce(?, country_code),
         label = coalesce(?, label), ranking = coalesce(?, ranking)
       WHERE contact_id = ? AND match_key = ?`,
  deletePhones: 'DELETE FROM contact_phones WHERE contact_id = ?',
  phones: `SELECT phone_number, phone_number_sanitized, country_code, label, ranking
       FROM contact_phones WHERE contact_id = ? ORDER BY position`,
  userGroup: 'SELECT 1 FROM groups WHERE id = ? AND user_id = ?',
  insertMembership: 'INSERT INTO group_memberships (group_id, contact_id, position) VALUES (?, ?, ?)',
  groups: `SELECT g.id AS group_id, g.name FROM group_memberships m JOIN groups g ON g.id = m.group_id
       WHERE m.contact_id = ? ORDER BY m.position`,
  userField: 'SELECT 1 FROM custom_fields WHERE id = ? AND user_id = ?',
  insertValue: `INSERT INTO custom_field_values (contact_id, field_id, type, text_value, position)
       VALUES (@contact_id, @field_id, @type, @text_value, @position)`,
  updateValue: `UPDATE custom_field_values SET text_value = @text_value, type = coalesce(@type, type)
       WHERE contact_id = @contact_id AND field_id = @field_id`,
  values: `SELECT f.id, f.name, v.text_value FROM custom_field_values v JOIN custom_fields f ON f.id = v.field_id
       WHERE v.contact_id = ? ORDER BY v.position`,
  insertTag: 'INSERT INTO contact_tags (contact_id, tag_id, position) VALUES (?, ?, ?)',
  removeTag: 'DELETE FROM contact_tags WHERE contact_id = ? AND tag_id = ?',
  clearTags: 'DELETE FROM contact_tags WHERE contact_id = ?',
  tags: 'SELECT tag_id FROM contact_tags WHERE contact_id = ? ORDER BY position',
  userContact: 'SELECT 1 FROM contacts WHERE id = ? AND user_id = ?',
  insertRelated: 'INSERT INTO related_contacts (source_id, destination_id, position) VALUES (?, ?, ?)',
  removeRelated: 'DELETE FROM related_contacts WHERE source_id = ? AND destination_id = ?',
  clearRelated: 'DELETE FROM related_contacts WHERE source_id = ?',
  related: 'SELECT destination_id AS destination FROM related_contacts WHERE source_id = ? ORDER BY position',
};

export type ListStatements = Record<keyof typeof LIST_SQL, Database.Statement<unknown[], unknown>>;

export function prepareListStatements(db: Db): ListStatements {
  const statements = {} as ListStatements;
  for (const [name, sql] of Object.entries(LIST_SQL)) {
    statements[name as keyof typeof LIST_SQL] = db.prepare(sql);
  }
  return statements;
}
