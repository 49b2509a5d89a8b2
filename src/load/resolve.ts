import type { ServiceClient } from '../client/index.js';
import type { ContactWrite } from '../core/schemas/index.js';
import type { LedgerScope } from '../state/index.js';
import type { NormalizedRecord } from '../normalize/record.js';
import { RECORD_LIMITS } from '../normalize/record-limits.js';
import { toWriteObject, writeHash, type ReferenceIds } from './write-object.js';

export interface Planned {
  record: NormalizedRecord;
  write: ContactWrite;
  hash: string;
  /** `write` as JSON, once it was measured for a chunk (chunks.ts): the request sends these bytes. */
  json?: string;
  /** Known or found contact id: an update; absent: a create. */
  contactId?: string;
  /** Set the moment the record's outcome is known, so a stopped run can tell what was not sent. */
  outcome?: 'created' | 'updated' | 'unchanged' | 'failed' | 'gone' | 'pending' | 'rejected';
}

export interface Plan {
  unchanged: Planned[];
  updates: Planned[];
  creates: Planned[];
}

export type MatchMode = 'email' | 'none';

/**
 * DESIGN.md: ledger first (same hash: unchanged, not sent); then, with `--match email`, an exact
 * e-mail search (E4 `exactMatch`) for records the ledger does not know; a hit is an update, a miss a
 * create. Searches run concurrently through the client's limit and are cached per run.
 */
export class Resolver {
  private readonly cache = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly options: {
      scope?: LedgerScope;
      client?: ServiceClient;
      match: MatchMode;
      ids: ReferenceIds;
      /** The target held no contacts when the run began: no search can hit, so none is sent. */
      targetWasEmpty: boolean;
    },
  ) {}

  async plan(records: NormalizedRecord[]): Promise<Plan> {
    const { scope, ids } = this.options;
    const known = scope?.getContacts(records.map((r) => r.key)) ?? new Map();
    const plan: Plan = { unchanged: [], updates: [], creates: [] };
    await Promise.all(
      records.map(async (record) => {
        const write = toWriteObject(record, ids);
        // Only the ledger reads the hash; a dry run with no ledger skips the cost (the run's hot path).
        const hash = scope ? writeHash(write) : '';
        const entry = known.get(record.key);
        if (entry) {
          if (entry.hash === hash) plan.unchanged.push({ record, write, hash, contactId: entry.contactId });
          else plan.updates.push({ record, write, hash, contactId: entry.contactId });
          return;
        }
        const found = await this.search(record);
        if (found) plan.updates.push({ record, write, hash, contactId: found });
        else plan.creates.push({ record, write, hash });
      }),
    );
    // Promise.all settles in completion order; keep the input order so requests are reproducible.
    const order = new Map(records.map((r, i) => [r, i]));
    const byInput = (a: Planned, b: Planned) => order.get(a.record)! - order.get(b.record)!;
    plan.unchanged.sort(byInput);
    plan.updates.sort(byInput);
    plan.creates.sort(byInput);
    return plan;
  }

  private async search(record: NormalizedRecord): Promise<string | undefined> {
    const { client, match, targetWasEmpty } = this.options;
    if (match !== 'email' || !client || targetWasEmpty) return undefined;
    // Bounded: a repeat lookup is a cheap request, an unbounded cache is memory that grows with input.
    if (this.cache.size > 50_000) this.cache.clear();
    // Its first e-mails only: a record's later addresses rarely identify it when the first do not.
    for (const { email } of (record.contact.contact_emails ?? []).slice(0, RECORD_LIMITS.searchedEmails)) {
      let pending = this.cache.get(email);
      if (!pending) {
        pending = client
          .globalSearch({ searchQuery: email, exactMatch: true, archived: true, take: 1 })
          .then((page) => page.contacts[0]?.id);
        this.cache.set(email, pending);
      }
      const id = await pending;
      if (id) return id;
    }
    return undefined;
  }
}
