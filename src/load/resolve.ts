import type { ServiceClient } from '../client/index.js';
import type { ContactJson, ContactResponse, ContactWrite } from '../core/schemas/index.js';
import type { LedgerScope } from '../state/index.js';
import type { NormalizedRecord } from '../normalize/record.js';
import { RECORD_LIMITS } from '../normalize/record-limits.js';
import { toWrite, writeHash, type ReferenceIds } from './write-object.js';

export interface Planned {
  record: NormalizedRecord;
  write: ContactWrite;
  /** `write` serialized once (write-object.ts): `hash` is over these bytes, the request sends them. */
  json: ContactJson;
  hash: string;
  /** Known or found contact id: an update; absent: a create. */
  contactId?: string;
  /** An update's contact as the service answered it (its scalar fields): the before-image. */
  current?: ContactResponse;
  /** The e-mail the contact was found by (on it already, so writing it adds nothing). */
  matchedEmail?: string;
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
interface Found {
  contact: ContactResponse;
  email: string;
}

export class Resolver {
  private readonly cache = new Map<string, Promise<ContactResponse | undefined>>();

  constructor(
    private readonly options: {
      scope?: LedgerScope;
      client?: ServiceClient;
      match: MatchMode;
      ids: ReferenceIds;
      /** The target held no contacts when the run began: no search can hit, so none is sent. */
      targetWasEmpty: boolean;
      /** Contacts an undo archived: a search that finds one finds no match. */
      undone?: (contactId: string) => boolean;
      /** Aborted when the run stops: searches still queued in the client are dropped. */
      signal?: AbortSignal;
    },
  ) {}

  /** Whether planning may send requests (e-mail searches): then it is worth running ahead of the sends. */
  get searches(): boolean {
    // With --match none a changed contact the ledger knows is still looked up (its before-image).
    const { client, targetWasEmpty } = this.options;
    return client !== undefined && !targetWasEmpty;
  }

  async plan(records: NormalizedRecord[]): Promise<Plan> {
    const { scope, ids } = this.options;
    const known = scope?.getContacts(records.map((r) => r.key)) ?? new Map();
    const plan: Plan = { unchanged: [], updates: [], creates: [] };
    await Promise.all(
      records.map(async (record) => {
        const { write, json } = toWrite(record, ids);
        // Only the ledger reads the hash; a dry run with no ledger skips the cost (the run's hot path).
        const hash = scope ? writeHash(json) : '';
        const entry = known.get(record.key);
        if (entry) {
          if (entry.hash === hash)
            plan.unchanged.push({ record, write, json, hash, contactId: entry.contactId });
          else {
            // Its before-image: a dry run's preview shows the old values, a live run's undo puts
            // them back. One exact search per changed known record, run ahead of the sends;
            // unchanged records cost nothing, so a rerun of the same file still sends nothing.
            const found = await this.search(record, entry.contactId);
            plan.updates.push(withFound({ record, write, json, hash, contactId: entry.contactId }, found));
          }
          return;
        }
        const found = await this.search(record);
        if (found)
          plan.updates.push(withFound({ record, write, json, hash, contactId: found.contact.id }, found));
        else plan.creates.push({ record, write, json, hash });
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

  /**
   * The contact one of the record's first e-mails finds exactly. With `id` (a contact the ledger
   * knows), only that contact: its answer is the before-image of the update. A contact an undo
   * archived (`undoneIds`) is no match: the record is created again.
   */
  private async search(record: NormalizedRecord, id?: string): Promise<Found | undefined> {
    const { client, match, targetWasEmpty } = this.options;
    if (!client || targetWasEmpty || (match !== 'email' && id === undefined)) return undefined;
    // Bounded: a repeat lookup is a cheap request, an unbounded cache is memory that grows with input.
    if (this.cache.size > 50_000) this.cache.clear();
    // Its first e-mails only: a record's later addresses rarely identify it when the first do not.
    for (const { email } of (record.contact.contact_emails ?? []).slice(0, RECORD_LIMITS.searchedEmails)) {
      let pending = this.cache.get(email);
      if (!pending) {
        pending = this.firstLive(client, email);
        this.cache.set(email, pending);
      }
      const contact = await pending;
      if (!contact) continue;
      if (id === undefined || contact.id === id) return { contact, email };
    }
    return undefined;
  }

  /** The first contact the address finds exactly that no undo archived (one more search only then). */
  private async firstLive(client: ServiceClient, email: string): Promise<ContactResponse | undefined> {
    const opts = this.options.signal ? { signal: this.options.signal } : {};
    const query = { searchQuery: email, exactMatch: true, archived: true };
    const first = (await client.globalSearch({ ...query, take: 1 }, opts)).contacts[0];
    const undone = this.options.undone;
    if (!first || !undone?.(first.id)) return first;
    // An undo archived it: another contact may hold the address too, and that one is the match.
    const page = await client.globalSearch({ ...query, take: 100 }, opts);
    return page.contacts.find((c) => !undone(c.id));
  }
}

const withFound = (planned: Planned, found: Found | undefined): Planned =>
  found ? { ...planned, current: found.contact, matchedEmail: found.email } : planned;
