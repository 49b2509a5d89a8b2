import type { Statement } from 'better-sqlite3';
import type { Db } from './schema.js';

/** The list tables of a contact, each merged by its own normalized key. */
export type ListKind = 'emails' | 'phones' | 'groups' | 'values' | 'tags' | 'related';

/** One contact's stored list: the merge keys it holds and the next free position. */
export interface KeyedList {
  keys: Set<string>;
  nextPosition: number;
}

/** Where each list is stored: its table, the column holding its owner, and its merge key. */
const LIST_TABLES: Record<ListKind, { table: string; owner: string; key: string }> = {
  emails: { table: 'contact_emails', owner: 'contact_id', key: 'email_lc' },
  phones: { table: 'contact_phones', owner: 'contact_id', key: 'match_key' },
  groups: { table: 'group_memberships', owner: 'contact_id', key: 'group_id' },
  values: { table: 'custom_field_values', owner: 'contact_id', key: 'field_id' },
  tags: { table: 'contact_tags', owner: 'contact_id', key: 'tag_id' },
  related: { table: 'related_contacts', owner: 'source_id', key: 'destination_id' },
};

const KINDS = Object.keys(LIST_TABLES) as ListKind[];

/** One contact's list: merge key and position. */
const loadSql = (kind: ListKind): string => {
  const { table, owner, key } = LIST_TABLES[kind];
  return `SELECT ${key}, position FROM ${table} WHERE ${owner} = ?`;
};

/** Ids per preload query: well under SQLite's variable limit (a bulk write holds up to 1,000). */
const PRELOAD_CHUNK = 250;

/** The lists of `count` contacts at once: owner, merge key and position. */
const preloadSql = (kind: ListKind, count: number): string => {
  const { table, owner, key } = LIST_TABLES[kind];
  const marks = new Array<string>(count).fill('?').join(',');
  return `SELECT ${owner}, ${key}, position FROM ${table} WHERE ${owner} IN (${marks})`;
};

/**
 * Each contact's lists held in memory as sets of merge keys, so a merge is one set lookup per
 * entry instead of a scan of the stored list (positions used to come from `max(position)` per
 * insert, quadratic in the list). Within `batch` (one transaction) a list is read once and kept
 * in step with every write, however many bulk elements touch the same contact; outside a batch
 * every call reads afresh. The cache dies with the batch, so a rollback never leaves it stale.
 */
export class KeyedLists {
  private readonly load: Record<ListKind, Statement<[string], [string, number]>>;
  private readonly preloads = new Map<string, Statement<string[], [string, string, number]>>();
  private cache: Map<string, KeyedList> | undefined;
  private owned: Map<string, boolean> | undefined;

  constructor(private readonly db: Db) {
    const load = {} as Record<ListKind, Statement<[string], [string, number]>>;
    for (const kind of KINDS) load[kind] = db.prepare<[string], [string, number]>(loadSql(kind)).raw();
    this.load = load;
  }

  /** Runs `work` with one cache of lists; nested calls share the outer one. */
  batch<T>(work: () => T): T {
    if (this.cache) return work();
    this.cache = new Map();
    this.owned = new Map();
    try {
      return work();
    } finally {
      this.cache = undefined;
      this.owned = undefined;
    }
  }

  /**
   * Whether the user owns a group or field, asked once per batch (a bulk write names the same few
   * groups a hundred times); outside a batch every call asks.
   */
  owns(what: string, id: string, ask: () => boolean): boolean {
    const key = `${what}\u0000${id}`;
    const known = this.owned?.get(key);
    if (known !== undefined) return known;
    const answer = ask();
    this.owned?.set(key, answer);
    return answer;
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

  /**
   * Reads every list of these contacts with one query per list table (a bulk update of 100 used to
   * run 600), for this batch; outside a batch it does nothing.
   */
  preload(contactIds: readonly string[]): void {
    const cache = this.cache;
    if (!cache) return;
    const ids = [...new Set(contactIds)].filter((id) => !cache.has(`emails\u0000${id}`));
    for (let start = 0; start < ids.length; start += PRELOAD_CHUNK) {
      const slice = ids.slice(start, start + PRELOAD_CHUNK);
      for (const kind of KINDS) {
        const lists = new Map<string, KeyedList>(
          slice.map((id) => [id, { keys: new Set(), nextPosition: 0 }]),
        );
        for (const [owner, key, position] of this.preloadStatement(kind, slice.length).iterate(...slice)) {
          const list = lists.get(owner)!;
          list.keys.add(key);
          if (position >= list.nextPosition) list.nextPosition = position + 1;
        }
        for (const [id, list] of lists) cache.set(`${kind}\u0000${id}`, list);
      }
    }
  }

  private preloadStatement(kind: ListKind, count: number): Statement<string[], [string, string, number]> {
    const name = `${kind}:${count}`;
    let statement = this.preloads.get(name);
    if (!statement) {
      statement = this.db.prepare<string[], [string, string, number]>(preloadSql(kind, count)).raw();
      this.preloads.set(name, statement);
    }
    return statement;
  }

  /** A contact created in this batch holds no list yet: nothing to read. */
  fresh(contactId: string): void {
    for (const kind of KINDS)
      this.cache?.set(`${kind}\u0000${contactId}`, { keys: new Set(), nextPosition: 0 });
  }

  /** Drops everything this batch knows (a deleted contact cascades into other contacts' lists). */
  invalidate(): void {
    this.cache?.clear();
    this.owned?.clear();
  }
}
