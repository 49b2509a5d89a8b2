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

/** Ids per preload query: well under SQLite's variable limit (a bulk write holds up to 1,000). */
const PRELOAD_CHUNK = 250;

/** LOAD_SQL for many contacts at once: `? IN (...)` with the owner's id first in each row. */
const preloadSql = (kind: ListKind, count: number): string => {
  const [select, from] = LOAD_SQL[kind].split(' FROM ');
  const [table, where] = from!.split(' WHERE ');
  const owner = where!.replace(' = ?', '');
  const marks = new Array<string>(count).fill('?').join(',');
  return `${select!.replace('SELECT ', `SELECT ${owner}, `)} FROM ${table} WHERE ${owner} IN (${marks})`;
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
    for (const kind of KINDS) load[kind] = db.prepare<[string], [string, number]>(LOAD_SQL[kind]).raw();
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
