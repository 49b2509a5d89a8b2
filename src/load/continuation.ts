import type { ServiceClient } from '../client/index.js';
import type { ContactResponse, ContactWrite } from '../core/schemas/index.js';
import { imageAfter } from './known-image.js';
import type { LedgerScope, PendingCreate } from '../state/index.js';
import type { Staging } from '../package/staging.js';
import { searchFinder, settleLostCreate, underItsKey, type ContactFinder } from './lost-creates.js';
import { listTarget } from './target-listing.js';

/** What the run continues, for the line "continuing run <id>: N loaded, M to go". */
export interface Continues {
  runId: string;
  /** Contacts the ledger holds for this target once the lost creates are settled. */
  loaded: number;
  /** Staged records the ledger does not hold yet. */
  toGo: number;
}

/** How the run resolves the records the ledger does not know. */
export interface ResolutionStart {
  /** No search can hit anything this ledger did not write: unknown records are creates. */
  searchless: boolean;
  continues?: Continues;
  /** Why a continuation searches after all (the target gained contacts the run did not write). */
  searchReason?: string;
  /** Creates an interrupted run left pending, now settled. */
  resumedCreates: number;
  /** The resolutions of the run continued were taken over: send them as decided (resolve.ts). */
  reuse?: { creates: boolean };
}

/** Nothing lands on a target that answers a create with a 400: settleLostCreate forgot the chunk. */
const settleAll = async (
  pendings: readonly PendingCreate[],
  ctx: { client: ServiceClient; scope: LedgerScope; finderOf: (pending: PendingCreate) => ContactFinder },
): Promise<number> => {
  let settled = 0;
  for (const pending of pendings) {
    try {
      settled += (await settleLostCreate(pending, { ...ctx, finder: ctx.finderOf(pending) })).length;
    } catch (error) {
      if ((error as { status?: number }).status !== 400) throw error;
    }
  }
  return settled;
};

/**
 * How many staged records the ledger does not hold yet; of those an earlier run resolved to
 * "create" (`runId` holds its resolutions), how many, their e-mails (lower case), and how many of
 * them had no e-mail to tell them by.
 */
const scanToGo = (staging: Staging, scope: LedgerScope, runId?: string) => {
  let toGo = 0;
  let resolvedCreates = 0;
  let withoutEmail = 0;
  const createEmails = new Set<string>();
  for (const batch of staging.batches(1000)) {
    const known = scope.getContacts(batch.map((r) => r.key));
    const unknown = batch.filter((record) => !known.has(record.key));
    toGo += unknown.length;
    if (runId === undefined) continue;
    for (const resolution of scope
      .getResolutions(
        runId,
        unknown.map((r) => r.key),
      )
      .values()) {
      if (resolution.contactId !== undefined) continue;
      resolvedCreates += 1;
      if (resolution.email === undefined) withoutEmail += 1;
      else createEmails.add(resolution.email.toLowerCase());
    }
  }
  return { toGo, resolvedCreates, withoutEmail, createEmails };
};

const emailsOf = (contact: unknown): string[] =>
  ((contact as { contact_emails?: { email?: string }[] }).contact_emails ?? []).flatMap((e) =>
    typeof e.email === 'string' ? [e.email.toLowerCase()] : [],
  );

/** The first e-mails of a pending create's records (lower case). */
const pendingEmails = (pendings: readonly PendingCreate[]): Set<string> =>
  new Set(
    pendings.flatMap((pending) =>
      (JSON.parse(pending.body) as { contacts: ContactWrite[] }).contacts.flatMap((c) =>
        (c.contact_emails ?? []).map((e) => e.email.toLowerCase()),
      ),
    ),
  );

/**
 * Finds a pending create's records among the contacts the listing showed that the ledger did not
 * write (by e-mail; a record without one by search): a create that landed before the crash, or a
 * person someone else stored since, is recorded, not created again. What is not there is resent
 * under its own key. `claimed` collects the contacts so taken, by the record's key.
 */
const listedFinder = (
  listed: ReadonlyMap<string, ContactResponse>,
  search: ContactFinder,
  claimed: Map<string, ContactResponse>,
): ContactFinder => ({
  async find(write, key) {
    const emails = (write.contact_emails ?? []).map((e) => e.email.toLowerCase());
    if (emails.length === 0) return search.find(write, key);
    for (const email of emails) {
      const contact = listed.get(email);
      if (contact !== undefined) {
        claimed.set(key, contact);
        return contact.id;
      }
    }
    return undefined;
  },
});

/**
 * A record found on the target is not known to hold the file's values: a person someone else
 * stored holds theirs. Its hash is cleared and its image is the contact as listed, so resolution
 * sends what the contact lacks (nothing, for a create that had landed) as for any changed record.
 */
const distrustClaimed = (scope: LedgerScope, claimed: ReadonlyMap<string, ContactResponse>): void => {
  if (claimed.size === 0) return;
  const entries = [...claimed];
  scope.putContacts(entries.map(([key, contact]) => ({ key, contactId: contact.id, hash: '' })));
  scope.putImages(
    entries.map(([key, contact]) => ({
      key,
      image: JSON.stringify(imageAfter(undefined, contact as unknown as ContactWrite)),
    })),
  );
};

interface StartOptions {
  client: ServiceClient;
  scope: LedgerScope;
  runId: string;
  targetWasEmpty: boolean;
  staging: Staging;
}

/**
 * A run keeps what it knew, and the same command continues it until a run of the scope completes.
 * When there is something to continue, the target's whole contact list is paged
 * (target-listing.ts) and told apart from what the ledger wrote: a check that cannot miss a
 * contact added elsewhere while the run was stopped.
 * - The creates left pending (journaled as their requests left: at most those in flight) are
 *   settled against the listing: their records found there are recorded, the rest resent under
 *   their own keys. With nothing to continue they are looked up by search (lost-creates.ts).
 * - A run that found the target empty recorded so. When the target holds no other contact the
 *   ledger did not write, its continuation resolves as it did, without a search per record;
 *   otherwise it searches as a first run into a non-empty target would, and says why.
 * - A run into a target that holds contacts kept what each search decided (resolve.ts). Its
 *   continuation takes those resolutions over: records resolved to an existing contact are updated
 *   without a search; records resolved to "create" too, unless a contact the ledger did not write
 *   now holds the e-mail one of them was searched by (then they are all searched again). Records
 *   no run resolved are searched.
 * Cost on top of the chunks: one request per 100 contacts on the target, and the pending creates
 * not found there (one request each).
 */
export const startResolution = async (options: StartOptions): Promise<ResolutionStart> => {
  const { client, scope, runId } = options;
  if (options.targetWasEmpty) {
    // Nothing on the target: no earlier decision to update a contact holds, and nothing needs one.
    scope.clearResolutions();
    // Nothing can have landed on an empty target: pending creates are resent without a lookup.
    const pendings = scope.pendingCreates();
    const resumedCreates = await settleAll(pendings, { client, scope, finderOf: () => underItsKey });
    scope.beginContinuation({ runId, startedAt: new Date().toISOString() });
    return { searchless: true, resumedCreates };
  }
  const previous = scope.continuation();
  const adopted = scope.adoptResolutions(runId);
  const pendings = scope.pendingCreates();
  const search = searchFinder(client);
  const scan = scanToGo(options.staging, scope, adopted ? runId : undefined);
  const checkCreates = adopted !== undefined && scan.resolvedCreates > 0;
  if (!previous && !checkCreates) {
    // Nothing tells whether someone stored these people since: their records are looked up.
    const resumedCreates = await settleAll(pendings, { client, scope, finderOf: () => search });
    if (!adopted) return { searchless: false, resumedCreates };
    const continues = {
      runId: adopted.runId,
      loaded: scope.contactCount(),
      toGo: scan.toGo - resumedCreates,
    };
    return { searchless: false, resumedCreates, continues, reuse: { creates: true } };
  }

  // The e-mails the listing is read for: those of the pending creates and of the records resolved
  // to create. Only contacts holding one of them are kept, whatever the size of the target.
  const wanted = new Set([...pendingEmails(pendings), ...scan.createEmails]);
  const listed = new Map<string, ContactResponse>();
  const listing = await listTarget(client, scope.contactIds(), (contact) => {
    for (const email of emailsOf(contact)) if (wanted.has(email)) listed.set(email, contact);
  });
  const claimed = new Map<string, ContactResponse>();
  const finder = listedFinder(listed, search, claimed);
  const resumedCreates = await settleAll(pendings, { client, scope, finderOf: () => finder });
  distrustClaimed(scope, claimed);
  const claimedIds = new Set([...claimed.values()].map((c) => c.id));
  const foreign = listing.foreign - claimedIds.size;
  const loaded = scope.contactCount();
  const continues = { runId: (adopted ?? previous)!.runId, loaded, toGo: scan.toGo - resumedCreates };

  let searchReason: string | undefined;
  if (previous) {
    if (foreign === 0)
      return { searchless: true, resumedCreates, continues: { ...continues, runId: previous.runId } };
    scope.endContinuation();
    searchReason =
      `the target holds ${foreign} contacts that run ${previous.runId} did not write ` +
      `(${listing.listed} listed, ${loaded} in the ledger): every record the ledger does not know is searched by e-mail`;
    if (!adopted) return { searchless: false, resumedCreates, searchReason };
  }
  const emailHits = new Set(
    [...listed].flatMap(([email, { id }]) =>
      scan.createEmails.has(email) && !claimedIds.has(id) ? [id] : [],
    ),
  ).size;
  if (!checkCreates || (emailHits === 0 && scan.withoutEmail === 0)) {
    return {
      searchless: false,
      resumedCreates,
      continues,
      reuse: { creates: true },
      ...(searchReason ? { searchReason } : {}),
    };
  }
  searchReason =
    emailHits > 0
      ? `${emailHits} contacts that run ${adopted!.runId} did not write now hold e-mails of records it resolved to create ` +
        `and has not sent: those ${scan.resolvedCreates} records are searched again by e-mail`
      : `${scan.withoutEmail} records that run ${adopted!.runId} resolved to create have no e-mail to check them by: ` +
        `those ${scan.resolvedCreates} records are searched again`;
  return { searchless: false, resumedCreates, continues, reuse: { creates: false }, searchReason };
};
