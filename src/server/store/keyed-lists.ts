import type { Statement } from 'better-sqlite3';
import type { Db } from './schema.js';

/** The list tables of a contact, each merged by its own normalized key. */
export type ListKind = 'emails' | 'phones' | 'groups' | 'values' | 'tags' | 'related';

/** One contact's stored list: the merge keys it holds and the next free position. */
export interface KeyedList {
  keys: Set<string>;
  nextPosition: number;
}

const LOAD_SQL: Record<ListKind, string> = {
  emails: 'SELECT email_lc, position FROM contact_emails WHERE contact_id = ?',
  phones: 'SELECT match_key, position FROM contact_phones WHERE contact_id = ?',
  groups: 'SELECT group_id, position FROM group_memberships WHERE contact_id = ?',
  values: 'SELECT field_id, position FROM custom_field_values WHERE contact_id = ?',
  tags: 'SELECT tag_id, position FROM contact_tags WHERE contact_id = ?',
  related: 'SELECT destination_id, position FROM related_contacts WHERE source_id = ?',
};

const KINDS = Object.keys(LOAD_SQL) as ListKind[];

/**
 * Each contact's lists held in memory as sets of merge keys, so a merge is one set lookup per
 * entry instead of a scan of the stored list (positions used to come from `max(position)` per
 * insert, quadratic in the list). Within `batch` (one transaction) a list is read once and kept
 * in step with every write, however many bulk elements touch the same contact; outside a batch
 * every call reads afresh. The cache dies with the batch, so a rollback never leaves it stale.
 */
export class KeyedLists {
  private readonly load: Record<ListKind, Statement<[string], [string, number]>>;
  private cache: Map<string, KeyedList> | undefined;

  constructor(db: Db) {
    const load = {} as Record<ListKind, Statement<[string], [string, number]>>;
    for (const kind of KINDS) load[kind] = db.prepare<[string], [string, number]>(LOAD_SQL[kind]).raw();
    this.load = load;
  }

  /** Runs `work` with one cache of lists; nested calls share the outer one. */
  batch<T>(work: () => T): T {
    if (this.cache) return work();
    this.cache = new Map();
    try {
      return work();
    } finally {
      this.cache = undefined;
    }
  }

  /** The contact's list of `kind`, read from the database unless this batch has it already. */
  get(kind: ListKind, contactId: string): KeyedList {
    const cacheKey = `${kind}\u0000${contactId}`;
    const cached = this.cache?.get(cacheKey);
    if (cached) return cached;
    const list: KeyedList = { keys: new Set(), nextPosition: 0 };
    for (const [key, position] of this.load[kind].iterate(contactId)) {
      list.keys.add(key);
      if (position >= list.nextPosition) list.nextPosition = position + 1;
    }
    this.cache?.set(cacheKey, list);
    return list;
  }

  /** A contact created in this batch holds no list yet: nothing to read. */
  fresh(contactId: string): void {
    for (const kind of KINDS)
      this.cache?.set(`${kind}\u0000${contactId}`, { keys: new Set(), nextPosition: 0 });
  }

  /** Drops everything this batch knows (a deleted contact cascades into other contacts' lists). */
  invalidate(): void {
    this.cache?.clear();
  }
}
