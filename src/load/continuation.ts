import type { ServiceClient } from '../client/index.js';
import { keysHonoured } from './key-replay.js';
import type { LedgerScope, PendingCreate } from '../state/index.js';
import type { Staging } from '../package/staging.js';
import { searchFinder, settleLostCreate, underItsKey, type ContactFinder } from './lost-creates.js';
import { explainedByPending } from './landed-creates.js';
import { listTarget } from './target-listing.js';
import type { ContactResponse } from '../core/schemas/index.js';

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

/** How many staged records the ledger does not hold yet. */
const scanToGo = (staging: Staging, scope: LedgerScope) => {
  let toGo = 0;
  for (const batch of staging.batches(1000)) {
    const known = scope.getContacts(batch.map((r) => r.key));
    toGo += batch.filter((record) => !known.has(record.key)).length;
  }
  return { toGo };
};

/** The contacts a listing taken after the stop found that the ledger did not hold then. */
interface Unknown {
  /** Their ids. */
  ids: string[];
  /** The first of them, as many as the pending creates hold records (more cannot be theirs). */
  kept: ContactResponse[];
}

/**
 * How the pending creates are settled. They are the ones whose request had left (journaled as they
 * are handed to the network): at most the requests in flight, each of which may or may not have
 * reached the target. Resent under its key, one that had reached it is answered with what it
 * created; one that had not is created now, which is right only if nobody stored its people in
 * the meantime. So:
 * - with a listing taken after the stop that shows no contact the ledger does not hold, none of
 *   them reached the target and nobody stored anything: each is sent under its key, no lookup;
 * - on a target recorded as honouring keys, when the contacts the ledger does not hold are exactly
 *   pending chunks, whole (landed-creates.ts), nobody stored anything either: resent under keys;
 * - otherwise (no listing: a target that held contacts before; someone stored contacts; a target
 *   that ignores keys) their records are looked up first (lost-creates.ts), one search each.
 */
const pendingFinder = async (
  client: ServiceClient,
  scope: LedgerScope,
  pendings: readonly PendingCreate[],
  unknown?: Unknown,
): Promise<ContactFinder> => {
  if (unknown?.ids.length === 0) return underItsKey;
  const explained =
    unknown !== undefined &&
    unknown.ids.length === unknown.kept.length &&
    explainedByPending(unknown.kept, pendings) &&
    (await keysHonoured(client, scope));
  return explained ? underItsKey : searchFinder(client);
};

const settlePending = async (
  client: ServiceClient,
  scope: LedgerScope,
  unknown?: Unknown,
): Promise<number> => {
  const pendings = scope.pendingCreates();
  if (pendings.length === 0) return 0;
  const finder = await pendingFinder(client, scope, pendings, unknown);
  return settleAll(pendings, { client, scope, finderOf: () => finder });
};

/** Pages the target (target-listing.ts) and keeps what settlePending needs of the contacts not the ledger's. */
const listAfterStop = async (client: ServiceClient, scope: LedgerScope) => {
  const room = scope.pendingCreates().reduce((n, p) => n + p.keys.length, 0);
  const unknown: Unknown = { ids: [], kept: [] };
  const listing = await listTarget(client, scope.contactIds(), (contact) => {
    unknown.ids.push(contact.id);
    if (unknown.kept.length < room) unknown.kept.push(contact);
  });
  return { ...listing, unknown };
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
 * The creates left pending are settled first (settlePending).
 * - A run that found the target empty recorded so. Its continuation pages the target's whole
 *   contact list (target-listing.ts), before it settles those creates, and tells it apart from
 *   what the ledger wrote (with the pending creates' contacts once settled): a check that
 *   cannot miss a contact stored elsewhere while the run was stopped. With none, it resolves as
 *   the first run did, without a search per record; otherwise it searches as a first run into a
 *   non-empty target would, and says why. Cost: one request per page of the listing.
 * - A run into a target that holds contacts kept what each search decided (resolve.ts). Its
 *   continuation takes those resolutions over: records resolved to an existing contact are updated
 *   without a search; records resolved to "create", and records no run resolved, are searched.
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
  // Listed before the pending creates are settled: what the listing shows decides how (above).
  const listing = previous ? await listAfterStop(client, scope) : undefined;
  const resumedCreates = await settlePending(client, scope, listing?.unknown);
  const adopted = scope.adoptResolutions(runId);
  if (!previous && !adopted) return { searchless: false, resumedCreates };
  const scan = scanToGo(options.staging, scope);
  const loaded = scope.contactCount();

  let searchReason: string | undefined;
  if (previous && listing) {
    // The pending creates that had landed are the ledger's now: what is left is someone else's.
    const ours = scope.contactIds();
    const foreign = listing.unknown.ids.filter((id) => !ours.has(id)).length;
    if (foreign === 0) {
      return {
        searchless: true,
        resumedCreates,
        continues: { runId: previous.runId, loaded, toGo: scan.toGo },
      };
    }
    scope.endContinuation();
    searchReason =
      `the target holds ${foreign} contacts that run ${previous.runId} did not write ` +
      `(${listing.listed} listed, ${loaded} in the ledger): every record the ledger does not know is searched by e-mail`;
    if (!adopted) return { searchless: false, resumedCreates, searchReason };
  }
  // The target held contacts before: only a search tells whether one of them, or one stored since,
  // is a record resolved to create (docs/api-reference.md's contact answers carry no e-mails to compare).
  return {
    searchless: false,
    resumedCreates,
    continues: { runId: adopted!.runId, loaded, toGo: scan.toGo },
    reuse: { creates: false },
    ...(searchReason ? { searchReason } : {}),
  };
};
