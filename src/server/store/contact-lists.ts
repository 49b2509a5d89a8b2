import type { ContactWrite } from '../../core/schemas/contact.js';
import { invalidBodyAt, type WriteLocation } from '../envelope.js';
import { KeyedLists, type KeyedList, type ListKind } from './keyed-lists.js';
import { checkListLength, checkStoredSize, checkWriteLists } from './list-caps.js';
import { prepareListStatements, type ListStatements } from './contact-list-statements.js';
import type { Db } from './schema.js';

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

type Email = { email: string; label?: string; ranking?: number };
type Phone = NonNullable<ContactWrite['contact_phone_numbers']>[number];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A 400 naming the first entry that refers to an id the user does not own. */
function checkOwned<E>(
  entries: readonly E[],
  idOf: (entry: E) => string,
  owned: (id: string) => boolean,
  where: { path: (i: number) => string; what: string; at: WriteLocation },
): void {
  entries.forEach((entry, i) => {
    const id = idOf(entry);
    if (!owned(id)) {
      throw invalidBodyAt(
        where.path(i),
        `No ${where.what} with id '${id}' for this API key.`,
        where.at.index,
      );
    }
  });
}

/** How one list merges: its merge key, and what to do with a new or an already stored entry. */
interface MergeRule<E> {
  kind: ListKind;
  /** The list's path inside the write, for a 400 over the cap. */
  field: string;
  key: (entry: E) => string;
  insert: (entry: E, key: string, position: number) => void;
  update?: (entry: E, key: string) => void;
}

/**
 * The list fields of a contact, each in its own table, with the merge rules of docs/design.md: e-mails
 * merge by address (case-insensitive), phones by sanitized number, memberships and custom values
 * are added or set, tags and related contacts apply append/remove/replace. Every merge is linear in
 * what it is sent (one set lookup and at most one statement per entry), and a list never grows
 * past `MAX_LIST_ENTRIES`.
 */
export class ContactLists {
  readonly keyed: KeyedLists;
  private readonly s: ListStatements;

  constructor(db: Db) {
    this.s = prepareListStatements(db);
    this.keyed = new KeyedLists(db);
  }

  /** Applies every list field present in `write` to the contact (which must be the user's). */
  apply(userId: number, contactId: string, write: ContactWrite, at: WriteLocation): void {
    checkWriteLists(write, at);
    if (write.contact_emails) this.mergeEmails(userId, contactId, write.contact_emails, at);
    if (write.contact_phone_numbers) this.mergePhones(contactId, write.contact_phone_numbers, at);
    if (write.groups_contacts) this.mergeMemberships(userId, contactId, write.groups_contacts, at);
    if (write.custom_fields) this.mergeValues(userId, contactId, write.custom_fields, at);
    if (write.tags_contacts) this.applyTags(contactId, write.tags_contacts, at);
    if (write.related_contacts) this.applyRelated(userId, contactId, write.related_contacts, at);
  }

  /** E11 with `update_contact_emails: true`: the given list becomes the whole list. */
  replaceEmails(userId: number, contactId: string, emails: { email: string }[]): void {
    checkListLength(emails.length, 'contact_emails');
    this.s.deleteEmails.run(contactId);
    this.keyed.invalidate();
    this.mergeEmails(userId, contactId, emails, { prefix: '' });
  }

  replacePhones(contactId: string, phones: { phone_number: string; label?: string }[]): void {
    checkListLength(phones.length, 'contact_phone_numbers');
    this.s.deletePhones.run(contactId);
    this.keyed.invalidate();
    this.mergePhones(contactId, phones, { prefix: '' });
  }

  private merge<E>(contactId: string, entries: readonly E[], rule: MergeRule<E>, at: WriteLocation): void {
    const list = this.keyed.get(rule.kind, contactId);
    const sizeBefore = list.keys.size;
    for (const entry of entries) {
      const key = rule.key(entry);
      if (list.keys.has(key)) {
        rule.update?.(entry, key);
      } else {
        rule.insert(entry, key, list.nextPosition);
        list.nextPosition += 1;
        list.keys.add(key);
      }
    }
    checkStoredSize(list, sizeBefore, `${at.prefix}${rule.field}`, at.index);
  }

  private mergeEmails(userId: number, contactId: string, emails: readonly Email[], at: WriteLocation): void {
    this.merge(
      contactId,
      emails,
      {
        kind: 'emails',
        field: 'contact_emails',
        key: (e) => e.email.toLowerCase(),
        insert: (e, key, position) =>
          this.s.insertEmail.run(
            contactId,
            userId,
            e.email,
            key,
            e.label ?? null,
            e.ranking ?? null,
            position,
          ),
        // Nothing to set when the e-mail comes again without a label or ranking.
        update: (e, key) => {
          if (e.label === undefined && e.ranking === undefined) return;
          this.s.updateEmail.run(e.label ?? null, e.ranking ?? null, contactId, key);
        },
      },
      at,
    );
  }

  private mergePhones(contactId: string, phones: readonly Phone[], at: WriteLocation): void {
    this.merge(
      contactId,
      phones,
      {
        kind: 'phones',
        field: 'contact_phone_numbers',
        key: (p) => p.phone_number_sanitized ?? p.phone_number,
        insert: (p, key, position) =>
          this.s.insertPhone.run(
            contactId,
            key,
            p.phone_number,
            p.phone_number_sanitized ?? null,
            p.country_code ?? null,
            p.label ?? null,
            p.ranking ?? null,
            position,
          ),
        update: (p, key) =>
          this.s.updatePhone.run(
            p.phone_number,
            p.country_code ?? null,
            p.label ?? null,
            p.ranking ?? null,
            contactId,
            key,
          ),
      },
      at,
    );
  }

  private mergeMemberships(
    userId: number,
    contactId: string,
    memberships: NonNullable<ContactWrite['groups_contacts']>,
    at: WriteLocation,
  ): void {
    checkOwned(
      memberships,
      (m) => m.group_id,
      (id) => this.keyed.owns('group', id, () => this.s.userGroup.get(id, userId) !== undefined),
      {
        path: (i) => `${at.prefix}groups_contacts.${i}.group_id`,
        what: 'group',
        at,
      },
    );
    this.merge(
      contactId,
      memberships,
      {
        kind: 'groups',
        field: 'groups_contacts',
        key: (m) => m.group_id,
        insert: (_m, groupId, position) => this.s.insertMembership.run(groupId, contactId, position),
      },
      at,
    );
  }

  private mergeValues(
    userId: number,
    contactId: string,
    values: NonNullable<ContactWrite['custom_fields']>,
    at: WriteLocation,
  ): void {
    checkOwned(
      values,
      (v) => v.id,
      (id) => this.keyed.owns('field', id, () => this.s.userField.get(id, userId) !== undefined),
      {
        path: (i) => `${at.prefix}custom_fields.${i}.id`,
        what: 'custom field definition',
        at,
      },
    );
    const row = (v: (typeof values)[number]) => ({
      contact_id: contactId,
      field_id: v.id,
      type: v.type ?? null,
      text_value: v.text_value,
    });
    this.merge(
      contactId,
      values,
      {
        kind: 'values',
        field: 'custom_fields',
        key: (v) => v.id,
        insert: (v, _key, position) => this.s.insertValue.run({ ...row(v), position }),
        update: (v) => this.s.updateValue.run(row(v)),
      },
      at,
    );
  }

  /** Adds a key to a list held in memory and in its table, unless it is there already. */
  private static add(list: KeyedList, key: string, insert: (position: number) => void): void {
    if (list.keys.has(key)) return;
    insert(list.nextPosition);
    list.nextPosition += 1;
    list.keys.add(key);
  }

  private static clear(list: KeyedList): void {
    list.keys.clear();
    list.nextPosition = 0;
  }

  private applyTags(
    contactId: string,
    op: NonNullable<ContactWrite['tags_contacts']>,
    at: WriteLocation,
  ): void {
    const list = this.keyed.get('tags', contactId);
    const sizeBefore = list.keys.size;
    const add = (tag: string) =>
      ContactLists.add(list, tag, (position) => this.s.insertTag.run(contactId, tag, position));
    if (op.replace !== undefined) {
      const tags = this.idList(op.replace, 'tag_id', `${at.prefix}tags_contacts.replace`, at);
      this.s.clearTags.run(contactId);
      ContactLists.clear(list);
      tags.forEach(add);
    }
    for (const r of op.remove ?? []) {
      this.s.removeTag.run(contactId, r.tag_id);
      list.keys.delete(r.tag_id);
    }
    for (const a of op.append ?? []) add(a.tag_id);
    checkStoredSize(list, sizeBefore, `${at.prefix}tags_contacts`, at.index);
  }

  private applyRelated(
    userId: number,
    contactId: string,
    op: NonNullable<ContactWrite['related_contacts']>,
    at: WriteLocation,
  ): void {
    const base = `${at.prefix}related_contacts`;
    const list = this.keyed.get('related', contactId);
    const sizeBefore = list.keys.size;
    const add = (destination: string, path: string) => {
      if (!this.s.userContact.get(destination, userId)) {
        throw invalidBodyAt(path, `No contact with id '${destination}' for this API key.`, at.index);
      }
      ContactLists.add(list, destination, (position) =>
        this.s.insertRelated.run(contactId, destination, position),
      );
    };
    if (op.replace !== undefined) {
      const destinations = this.idList(op.replace, 'destination', `${base}.replace`, at);
      this.s.clearRelated.run(contactId);
      ContactLists.clear(list);
      destinations.forEach((d, i) => add(d, `${base}.replace.${i}.destination`));
    }
    // A removal names the pair; the other end is whichever id is not this contact.
    for (const r of op.remove ?? []) {
      for (const other of [r.source, r.destination]) {
        if (typeof other !== 'string') continue;
        this.s.removeRelated.run(contactId, other);
        list.keys.delete(other);
      }
    }
    op.append?.forEach((a, i) => add(a.destination, `${base}.append.${i}.destination`));
    checkStoredSize(list, sizeBefore, base, at.index);
  }

  /**
   * `replace` has no shape in docs/api-reference.md; we take an array of `{<key>: id}` objects and
   * refuse the rest.
   */
  private idList(value: unknown, key: string, path: string, at: WriteLocation): string[] {
    if (!Array.isArray(value)) throw invalidBodyAt(path, `Expected an array of {${key}} objects.`, at.index);
    return value.map((item, i) => {
      const id = isRecord(item) ? item[key] : undefined;
      if (typeof id !== 'string' || id === '') {
        throw invalidBodyAt(`${path}.${i}.${key}`, `Expected {${key}: id}.`, at.index);
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
