import type { ContactWrite } from '../../core/schemas/contact.js';
import { badReference } from '../envelope.js';
import type { Db } from './schema.js';

/** Where a write sits in its request body, so a bad reference is reported at its full path. */
export interface WriteLocation {
  /** Path prefix ending in a dot, or '' for a body that is the write itself (E2). */
  prefix: string;
  /** Element index in a bulk body. */
  index?: number;
}

export interface StoredEmail {
  email: string;
  label: string | null;
  ranking: number | null;
}
export interface StoredPhone {
  phone_number: string;
  phone_number_sanitized: string | null;
  country_code: string | null;
  label: string | null;
  ranking: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function prepareStatements(db: Db) {
  const nextPosition = (table: string, column = 'contact_id') =>
    `(SELECT coalesce(max(position), -1) + 1 FROM ${table} WHERE ${column} = @contact_id)`;
  return {
    upsertEmail: db.prepare(
      `INSERT INTO contact_emails (contact_id, user_id, email, email_lc, label, ranking, position)
       VALUES (@contact_id, @user_id, @email, @email_lc, @label, @ranking, ${nextPosition('contact_emails')})
       ON CONFLICT (contact_id, email_lc) DO UPDATE SET
         label = coalesce(excluded.label, label), ranking = coalesce(excluded.ranking, ranking)`,
    ),
    deleteEmails: db.prepare('DELETE FROM contact_emails WHERE contact_id = ?'),
    emails: db.prepare(
      'SELECT email, label, ranking FROM contact_emails WHERE contact_id = ? ORDER BY position',
    ),
    upsertPhone: db.prepare(
      `INSERT INTO contact_phones (contact_id, match_key, phone_number, phone_number_sanitized, country_code, label, ranking, position)
       VALUES (@contact_id, @match_key, @phone_number, @phone_number_sanitized, @country_code, @label, @ranking, ${nextPosition('contact_phones')})
       ON CONFLICT (contact_id, match_key) DO UPDATE SET
         phone_number = excluded.phone_number,
         country_code = coalesce(excluded.country_code, country_code),
         label = coalesce(excluded.label, label), ranking = coalesce(excluded.ranking, ranking)`,
    ),
    deletePhones: db.prepare('DELETE FROM contact_phones WHERE contact_id = ?'),
    phones: db.prepare(
      `SELECT phone_number, phone_number_sanitized, country_code, label, ranking
       FROM contact_phones WHERE contact_id = ? ORDER BY position`,
    ),
    userGroup: db.prepare('SELECT 1 FROM groups WHERE id = ? AND user_id = ?'),
    addMembership: db.prepare(
      `INSERT OR IGNORE INTO group_memberships (group_id, contact_id, position)
       VALUES (@group_id, @contact_id, ${nextPosition('group_memberships')})`,
    ),
    groups: db.prepare(
      `SELECT g.id AS group_id, g.name FROM group_memberships m JOIN groups g ON g.id = m.group_id
       WHERE m.contact_id = ? ORDER BY m.position`,
    ),
    userField: db.prepare('SELECT 1 FROM custom_fields WHERE id = ? AND user_id = ?'),
    upsertValue: db.prepare(
      `INSERT INTO custom_field_values (contact_id, field_id, type, text_value, position)
       VALUES (@contact_id, @field_id, @type, @text_value, ${nextPosition('custom_field_values')})
       ON CONFLICT (contact_id, field_id) DO UPDATE SET text_value = excluded.text_value, type = coalesce(excluded.type, type)`,
    ),
    values: db.prepare(
      `SELECT f.id, f.name, v.text_value FROM custom_field_values v JOIN custom_fields f ON f.id = v.field_id
       WHERE v.contact_id = ? ORDER BY v.position`,
    ),
    addTag: db.prepare(
      `INSERT OR IGNORE INTO contact_tags (contact_id, tag_id, position) VALUES (@contact_id, @tag_id, ${nextPosition('contact_tags')})`,
    ),
    removeTag: db.prepare('DELETE FROM contact_tags WHERE contact_id = ? AND tag_id = ?'),
    clearTags: db.prepare('DELETE FROM contact_tags WHERE contact_id = ?'),
    tags: db.prepare('SELECT tag_id FROM contact_tags WHERE contact_id = ? ORDER BY position'),
    userContact: db.prepare('SELECT 1 FROM contacts WHERE id = ? AND user_id = ?'),
    addRelated: db.prepare(
      `INSERT OR IGNORE INTO related_contacts (source_id, destination_id, position)
       VALUES (@contact_id, @destination_id, ${nextPosition('related_contacts', 'source_id')})`,
    ),
    removeRelated: db.prepare('DELETE FROM related_contacts WHERE source_id = ? AND destination_id = ?'),
    clearRelated: db.prepare('DELETE FROM related_contacts WHERE source_id = ?'),
    related: db.prepare(
      'SELECT destination_id AS destination FROM related_contacts WHERE source_id = ? ORDER BY position',
    ),
  };
}

/**
 * The list fields of a contact, each in its own table, with the merge rules of DESIGN.md: e-mails
 * merge by address (case-insensitive), phones by sanitized number, memberships and custom values
 * are added or set, tags and related contacts apply append/remove/replace.
 */
export class ContactLists {
  private readonly s: ReturnType<typeof prepareStatements>;

  constructor(db: Db) {
    this.s = prepareStatements(db);
  }

  /** Applies every list field present in `write` to the contact (which must be the user's). */
  apply(userId: number, contactId: string, write: ContactWrite, at: WriteLocation): void {
    if (write.contact_emails) this.mergeEmails(userId, contactId, write.contact_emails);
    if (write.contact_phone_numbers) this.mergePhones(contactId, write.contact_phone_numbers);
    write.groups_contacts?.forEach((membership, i) => {
      if (!this.s.userGroup.get(membership.group_id, userId)) {
        throw badReference(
          `${at.prefix}groups_contacts.${i}.group_id`,
          `No group with id '${membership.group_id}' for this API key.`,
          at.index,
        );
      }
      this.s.addMembership.run({ group_id: membership.group_id, contact_id: contactId });
    });
    write.custom_fields?.forEach((value, i) => {
      if (!this.s.userField.get(value.id, userId)) {
        throw badReference(
          `${at.prefix}custom_fields.${i}.id`,
          `No custom field definition with id '${value.id}' for this API key.`,
          at.index,
        );
      }
      this.s.upsertValue.run({
        contact_id: contactId,
        field_id: value.id,
        type: value.type ?? null,
        text_value: value.text_value,
      });
    });
    if (write.tags_contacts) this.applyTags(contactId, write.tags_contacts, at);
    if (write.related_contacts) this.applyRelated(userId, contactId, write.related_contacts, at);
  }

  mergeEmails(
    userId: number,
    contactId: string,
    emails: { email: string; label?: string; ranking?: number }[],
  ): void {
    for (const e of emails) {
      this.s.upsertEmail.run({
        contact_id: contactId,
        user_id: userId,
        email: e.email,
        email_lc: e.email.toLowerCase(),
        label: e.label ?? null,
        ranking: e.ranking ?? null,
      });
    }
  }

  mergePhones(contactId: string, phones: NonNullable<ContactWrite['contact_phone_numbers']>): void {
    for (const p of phones) {
      this.s.upsertPhone.run({
        contact_id: contactId,
        match_key: p.phone_number_sanitized ?? p.phone_number,
        phone_number: p.phone_number,
        phone_number_sanitized: p.phone_number_sanitized ?? null,
        country_code: p.country_code ?? null,
        label: p.label ?? null,
        ranking: p.ranking ?? null,
      });
    }
  }

  /** E11 with `update_contact_emails: true`: the given list becomes the whole list. */
  replaceEmails(userId: number, contactId: string, emails: { email: string }[]): void {
    this.s.deleteEmails.run(contactId);
    this.mergeEmails(userId, contactId, emails);
  }

  replacePhones(contactId: string, phones: { phone_number: string; label?: string }[]): void {
    this.s.deletePhones.run(contactId);
    this.mergePhones(contactId, phones);
  }

  private applyTags(
    contactId: string,
    op: NonNullable<ContactWrite['tags_contacts']>,
    at: WriteLocation,
  ): void {
    if (op.replace !== undefined) {
      const tags = this.idList(op.replace, 'tag_id', `${at.prefix}tags_contacts.replace`, at);
      this.s.clearTags.run(contactId);
      for (const tag of tags) this.s.addTag.run({ contact_id: contactId, tag_id: tag });
    }
    for (const r of op.remove ?? []) this.s.removeTag.run(contactId, r.tag_id);
    for (const a of op.append ?? []) this.s.addTag.run({ contact_id: contactId, tag_id: a.tag_id });
  }

  private applyRelated(
    userId: number,
    contactId: string,
    op: NonNullable<ContactWrite['related_contacts']>,
    at: WriteLocation,
  ): void {
    const base = `${at.prefix}related_contacts`;
    const add = (destination: string, path: string) => {
      if (!this.s.userContact.get(destination, userId)) {
        throw badReference(path, `No contact with id '${destination}' for this API key.`, at.index);
      }
      this.s.addRelated.run({ contact_id: contactId, destination_id: destination });
    };
    if (op.replace !== undefined) {
      const destinations = this.idList(op.replace, 'destination', `${base}.replace`, at);
      this.s.clearRelated.run(contactId);
      destinations.forEach((d, i) => add(d, `${base}.replace.${i}.destination`));
    }
    // A removal names the pair; the other end is whichever id is not this contact.
    for (const r of op.remove ?? []) {
      this.s.removeRelated.run(contactId, r.source);
      if (typeof r.destination === 'string') this.s.removeRelated.run(contactId, r.destination);
    }
    op.append?.forEach((a, i) => add(a.destination, `${base}.append.${i}.destination`));
  }

  /** `replace` has no shape in API.md; we take an array of `{<key>: id}` objects and refuse the rest. */
  private idList(value: unknown, key: string, path: string, at: WriteLocation): string[] {
    if (!Array.isArray(value)) throw badReference(path, `Expected an array of {${key}} objects.`, at.index);
    return value.map((item, i) => {
      const id = isRecord(item) ? item[key] : undefined;
      if (typeof id !== 'string' || id === '') {
        throw badReference(`${path}.${i}.${key}`, `Expected {${key}: id}.`, at.index);
      }
      return id;
    });
  }

  emails(contactId: string): StoredEmail[] {
    return this.s.emails.all(contactId) as StoredEmail[];
  }
  phones(contactId: string): StoredPhone[] {
    return this.s.phones.all(contactId) as StoredPhone[];
  }
  groups(contactId: string): { group_id: string; name: string }[] {
    return this.s.groups.all(contactId) as { group_id: string; name: string }[];
  }
  customFields(contactId: string): { id: string; name: string; text_value: string }[] {
    return this.s.values.all(contactId) as { id: string; name: string; text_value: string }[];
  }
  tags(contactId: string): { tag_id: string }[] {
    return this.s.tags.all(contactId) as { tag_id: string }[];
  }
  related(contactId: string): { destination: string }[] {
    return this.s.related.all(contactId) as { destination: string }[];
  }
}
