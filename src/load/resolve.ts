import type { ServiceClient } from '../client/index.js';
import type { ContactJson, ContactResponse, ContactWrite } from '../core/schemas/index.js';
import type {
  ContactEntry,
  KnownImages,
  Resolution,
  ScopeContacts,
  ScopeIdentities,
  ScopeResolutions,
} from '../state/index.js';
import type { NormalizedRecord } from '../normalize/record.js';
import { RECORD_LIMITS } from '../normalize/record-limits.js';
import { toWrite, writeHash, type ReferenceIds } from './write-object.js';
import { SCALAR_FIELDS } from './field-changes.js';
import { holdsEmail } from './answer-check.js';
import { recordIdentities } from '../normalize/identity.js';
import { parseImage, writeAdds, type KnownImage } from './known-image.js';
import {
  NAME_SEARCH_TAKE,
  nameQueryOf,
  type TargetCandidates,
  type TargetPairFound,
} from './target-candidates.js';

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
  /** What this ledger's runs wrote to the contact (known-image.ts): its list entries are not news. */
  known?: KnownImage;
  /** The record would have been created; it updates a target contact taken for the same person. */
  mergedWith?: TargetPairFound;
  /** Set the moment the record's outcome is known, so a stopped run can tell what was not sent. */
  outcome?: 'created' | 'updated' | 'unchanged' | 'failed' | 'gone' | 'pending' | 'rejected';
}

export interface Plan {
  unchanged: Planned[];
  updates: Planned[];
  creates: Planned[];
}

export type MatchMode = 'email' | 'none';

/** A record's write before it is decided, with its contact's image when the ledger has one. */
interface PreparedWrite extends Pick<Planned, 'record' | 'write' | 'json' | 'hash'> {
  image?: KnownImage;
}

/**
 * docs/design.md: ledger first (same hash: unchanged, not sent); then, with `--match email`, an exact
 * e-mail search (E4 `exactMatch`) for records the ledger does not know; a hit is an update, a miss a
 * create. Searches run concurrently through the client's limit and are cached per run.
 */
interface Found {
  contact: ContactResponse;
  email: string;
}

/** Decisions recorded in one ledger transaction: a kill -9 loses at most this many searches. */
export const RESOLUTIONS_PER_COMMIT = 100;

/** The parts of the ledger resolution reads and records. */
type ResolveLedger = ScopeContacts & ScopeIdentities & KnownImages & ScopeResolutions;

export class Resolver {
  private readonly cache = new Map<string, Promise<ContactResponse | undefined>>();
  private decided: Resolution[] = [];
  /**
   * Records whose resolution searched the target, by why: the ledger did not know them, or knew
   * them and their write changed (their current values: the preview's and undo's before-image).
   */
  readonly searched = { unknown: 0, changed: 0 };

  constructor(
    private readonly options: {
      scope?: ResolveLedger;
      client?: ServiceClient;
      match: MatchMode;
      ids: ReferenceIds;
      /** The target held no contacts when the run began: no search can hit, so none is sent. */
      targetWasEmpty: boolean;
      /** Contacts an undo archived: a search that finds one finds no match. */
      undone?: (contactId: string) => boolean;
      /** Aborted when the run stops: searches still queued in the client are dropped. */
      signal?: AbortSignal;
      /**
       * A live run: what each search decided is kept in the ledger under this run, so
       * the same command after a stop sends those records as decided. A dry run keeps nothing.
       */
      runId?: string;
      /**
       * The run continues one whose resolutions it took over (continuation.ts): a record resolved
       * then, unchanged since, is sent as decided without a search. `creates: false`: the
       * continuation's check found people on the target that were resolved "create", so those
       * records are searched again (the updates still stand).
       */
      reuse?: { creates: boolean };
      /**
       * No record planned is in the ledger: its scope held no contact when planning began (after
       * any resumed creates), and the staging hands out each identity once (a load that follows
       * reading into an empty target). Planning then looks nothing up (a random read a record on
       * the thread that sends).
       */
      keysAreNew?: boolean;
      /** Duplicate candidates against the target: one name search per record to create. */
      targetCandidates?: TargetCandidates;
    },
  ) {}

  /** Whether planning may send requests (e-mail searches): then it is worth running ahead of the sends. */
  get searches(): boolean {
    // With --match none a changed contact the ledger knows is still looked up (its before-image).
    const { client, targetWasEmpty } = this.options;
    return client !== undefined && !targetWasEmpty;
  }

  async plan(records: NormalizedRecord[]): Promise<Plan> {
    const { scope, runId, reuse } = this.options;
    const keys = records.map((r) => r.key);
    const known = this.options.keysAreNew
      ? new Map<string, ContactEntry>()
      : (scope?.getContacts(keys) ?? new Map());
    if (scope && !this.options.keysAreNew) this.knownByOtherIdentities(scope, records, known);
    const earlier =
      scope && runId && reuse ? scope.getResolutions(runId, keys) : new Map<string, Resolution>();
    const plan: Plan = { unchanged: [], updates: [], creates: [] };
    const writes = this.writesOf(records, known);
    // Nothing can be searched (a target known empty, or none): each record is decided as it
    // comes, in input order, without a promise a record on the thread that sends.
    if (!this.searches) {
      for (const [i, record] of records.entries()) {
        const entry = known.get(record.key);
        const open = this.decideKnown(plan, writes[i]!, entry, earlier);
        if (!open) continue;
        if (entry) plan.updates.push({ ...open, contactId: entry.contactId });
        else plan.creates.push(open);
      }
      return plan;
    }
    await Promise.all(
      records.map(async (record, i) => {
        const entry = known.get(record.key);
        const open = this.decideKnown(plan, writes[i]!, entry, earlier);
        if (!open) return;
        if (entry) {
          // Its before-image: a dry run's preview shows the old values, a live run's undo puts
          // them back. One exact search per changed known record, run ahead of the sends;
          // unchanged records cost nothing, so a rerun of the same file still sends nothing.
          if (hasSearchableEmail(record)) this.searched.changed += 1;
          const found = await this.search(record, entry.contactId);
          plan.updates.push(this.decide(withFound({ ...open, contactId: entry.contactId }, found)));
          return;
        }
        if (this.options.match === 'email' && hasSearchableEmail(record)) this.searched.unknown += 1;
        const found = await this.search(record);
        if (found) plan.updates.push(this.decide(withFound({ ...open, contactId: found.contact.id }, found)));
        else {
          const planned = this.decide(await this.sameNameMerge(open));
          (planned.contactId === undefined ? plan.creates : plan.updates).push(planned);
        }
      }),
    ).finally(() => this.flush());
    // Promise.all settles in completion order; keep the input order so requests are reproducible.
    const order = new Map(records.map((r, i) => [r, i]));
    const byInput = (a: Planned, b: Planned) => order.get(a.record)! - order.get(b.record)!;
    plan.unchanged.sort(byInput);
    plan.updates.sort(byInput);
    plan.creates.sort(byInput);
    return plan;
  }

  /**
   * Records whose key the ledger does not know, found by another identity they had when loaded
   * (their source id when the e-mail changed in the CRM; their phone, before their e-mail was
   * fixed): an update of that contact, never a second one.
   * The empty hash never equals a write's, so the record is sent and its new key recorded.
   */
  private knownByOtherIdentities(
    scope: ScopeContacts & ScopeIdentities,
    records: readonly NormalizedRecord[],
    known: Map<string, ContactEntry>,
  ): void {
    const unknown = records.filter((record) => !known.has(record.key));
    if (unknown.length === 0) return;
    const identitiesOf = new Map(
      unknown.map((record) => [
        record,
        recordIdentities(record.key, record.contact, record.sources).slice(1),
      ]),
    );
    const all = [...new Set([...identitiesOf.values()].flat())];
    // An e-mail is one person's; a phone is shared by a household or an office, so it finds only
    // a contact that was keyed by that phone (loaded while it had no e-mail), never one that merely
    // listed it.
    const found = scope.contactsByIdentity(all.filter((identity) => !identity.startsWith('phone:')));
    for (const [key, entry] of scope.getContacts(all.filter((identity) => identity.startsWith('phone:'))))
      found.set(key, entry.contactId);
    if (found.size === 0) return;
    for (const [record, identities] of identitiesOf) {
      const contactId = identities.map((identity) => found.get(identity)).find((id) => id !== undefined);
      if (contactId !== undefined && !this.options.undone?.(contactId))
        known.set(record.key, { contactId, hash: '' });
    }
  }

  /**
   * What the ledger alone decides of a record: unchanged (same hash), or as an earlier run of
   * this one resolved it; those go into `plan`. Otherwise its write, for a search or a default.
   */
  private decideKnown(
    plan: Plan,
    prepared: PreparedWrite,
    entry: ContactEntry | undefined,
    earlier: Map<string, Resolution>,
  ): Planned | undefined {
    const { record, write, json, hash, image } = prepared;
    // The same write as last time, or one the contact holds already (empty cells keep the value).
    if (entry && (entry.hash === hash || (image !== undefined && writeAdds(image, write).length === 0))) {
      plan.unchanged.push({ record, write, json, hash, contactId: entry.contactId });
      return undefined;
    }
    const open = { record, write, json, hash, ...(image ? { known: image } : {}) };
    const decided = this.reused(earlier.get(record.key), open, entry?.contactId);
    if (!decided) return open;
    (decided.contactId === undefined ? plan.creates : plan.updates).push(decided);
    return undefined;
  }

  /**
   * Each record's write and hash; for a record the ledger knows whose write changed, what the
   * ledger's runs wrote to its contact (read only for those: an unchanged rerun reads no image).
   */
  private writesOf(records: readonly NormalizedRecord[], known: Map<string, ContactEntry>): PreparedWrite[] {
    const { scope, ids } = this.options;
    const writes = records.map((record) => {
      const { write, json } = toWrite(record, ids);
      // Only the ledger reads the hash; a dry run with no ledger skips the cost (the run's hot path).
      return { record, write, json, hash: scope ? writeHash(json) : '' };
    });
    const changed = writes.filter((w) => {
      const entry = known.get(w.record.key);
      return entry !== undefined && entry.hash !== w.hash;
    });
    if (!scope || changed.length === 0) return writes;
    const images = scope.getImages(changed.map((w) => w.record.key));
    return writes.map((w) => {
      const image = parseImage(images.get(w.record.key));
      return image ? { ...w, image } : w;
    });
  }

  /**
   * What an earlier run decided for the record, when it still holds: the same write (hash), the
   * same contact as the ledger's, not archived by an undo since, and for a create, creates trusted.
   */
  private reused(earlier: Resolution | undefined, planned: Planned, knownId?: string): Planned | undefined {
    if (!earlier || earlier.hash !== planned.hash) return undefined;
    const { contactId, found, email } = earlier;
    if (contactId === undefined) {
      return knownId === undefined && this.options.reuse?.creates ? planned : undefined;
    }
    if ((knownId !== undefined && knownId !== contactId) || this.options.undone?.(contactId))
      return undefined;
    return {
      ...planned,
      contactId,
      ...(found !== undefined ? { current: found as ContactResponse } : {}),
      ...(found !== undefined && email !== undefined ? { matchedEmail: email } : {}),
    };
  }

  /**
   * Keeps the decision for the ledger when a live run searched for it (an update, or with
   * `--match email` a create), committed RESOLUTIONS_PER_COMMIT at a time as searches answer.
   */
  private decide(planned: Planned): Planned {
    const { runId, match } = this.options;
    if (runId === undefined || !this.searches) return planned;
    if (planned.contactId === undefined && match !== 'email') return planned;
    const email = planned.matchedEmail ?? planned.record.contact.contact_emails?.[0]?.email;
    this.decided.push({
      key: planned.record.key,
      hash: planned.hash,
      ...(planned.contactId !== undefined ? { contactId: planned.contactId } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(planned.current !== undefined ? { found: beforeImage(planned.current) } : {}),
    });
    if (this.decided.length >= RESOLUTIONS_PER_COMMIT) this.flush();
    return planned;
  }

  private flush(): void {
    if (this.decided.length === 0) return;
    const { scope, runId } = this.options;
    scope?.recordResolutions(runId!, this.decided);
    this.decided = [];
  }

  /**
   * A record to create, compared with the contacts one name search finds (E3 `fullName`): noted
   * for candidates.csv, and an update of the contact it merges into when one is chosen. The
   * search's answer is that contact's before-image (the preview, and undo).
   */
  private async sameNameMerge(open: Planned): Promise<Planned> {
    const { client, targetCandidates, signal } = this.options;
    const query = nameQueryOf(open.record);
    if (!client || !targetCandidates || query === undefined) return open;
    const opts = signal ? { signal } : {};
    const { contacts } = await client.searchContacts({ fullName: query, take: NAME_SEARCH_TAKE }, opts);
    const undone = this.options.undone ?? (() => false);
    const live = contacts.filter((c) => !c.is_archived && !undone(c.id));
    const merge = targetCandidates.consider(open.record, live);
    const contact = merge && live.find((c) => c.id === merge.contactId);
    if (!merge || !contact) return open;
    // Merged as a later duplicate is: the contact's own values win, the record fills what is empty.
    const held = contact as unknown as Record<string, unknown>;
    const fields = Object.entries(open.record.contact).filter(
      ([field]) => field === 'contact_emails' || field === 'contact_phone_numbers' || isEmpty(held[field]),
    );
    const record = { ...open.record, contact: Object.fromEntries(fields) } as NormalizedRecord;
    const { write, json } = toWrite(record, this.options.ids);
    const hash = this.options.scope ? writeHash(json) : '';
    return { ...open, record, write, json, hash, contactId: contact.id, current: contact, mergedWith: merge };
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

  /**
   * The first contact the address finds exactly that holds it (when the answer shows e-mails) and
   * that no undo archived; one more search only when the first hit is not that.
   */
  private async firstLive(client: ServiceClient, email: string): Promise<ContactResponse | undefined> {
    const opts = this.options.signal ? { signal: this.options.signal } : {};
    const query = { searchQuery: email, exactMatch: true, archived: true };
    const undone = this.options.undone ?? (() => false);
    const matches = (c: ContactResponse) => holdsEmail(c, email) && !undone(c.id);
    const first = (await client.globalSearch({ ...query, take: 1 }, opts)).contacts[0];
    if (!first || matches(first)) return first;
    // An undo archived it, or a search that is not exact matched something else (a full name
    // that is this address): another contact may hold the address, and that one is the match.
    const page = await client.globalSearch({ ...query, take: 100 }, opts);
    return page.contacts.find(matches);
  }
}

/**
 * What a kept resolution needs of the contact a search answered: the scalar fields an update's
 * preview and undo read (field-changes.ts), without the empty ones (read back as absent, which
 * they treat as empty): half the bytes recorded per decision.
 */
const beforeImage = (contact: ContactResponse): Partial<ContactResponse> =>
  Object.fromEntries(
    SCALAR_FIELDS.flatMap((field) => (contact[field] == null ? [] : [[field, contact[field]]])),
  ) as Partial<ContactResponse>;

const isEmpty = (value: unknown): boolean => value === undefined || value === null || value === '';

const hasSearchableEmail = (record: NormalizedRecord): boolean =>
  (record.contact.contact_emails?.length ?? 0) > 0;

const withFound = (planned: Planned, found: Found | undefined): Planned =>
  found ? { ...planned, current: found.contact, matchedEmail: found.email } : planned;
