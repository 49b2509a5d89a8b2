import type { ServiceClient } from '../client/index.js';
import type { ContactResponse } from '../core/schemas/index.js';
import type { LedgerScope } from '../state/index.js';
import { listedFinder, searchFinder, settleLostCreate, type ContactFinder } from './lost-creates.js';

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
}

/** Page size of the continuation's scan: the most E4 gives (the local service refuses more than 100). */
const SCAN_PAGE = 100;

/**
 * The target's contacts that the ledger does not know, read page by page; stops once there are
 * more than `tolerated` (more than lost creates can explain: someone else wrote them).
 */
const unknownContacts = async (
  client: ServiceClient,
  known: Set<string>,
  tolerated: number,
): Promise<{ unknown: ContactResponse[]; foreign: boolean }> => {
  const unknown: ContactResponse[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.globalSearch({
      archived: true,
      take: SCAN_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const contact of page.contacts) if (!known.has(contact.id)) unknown.push(contact);
    if (unknown.length > tolerated) return { unknown, foreign: true };
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { unknown, foreign: false };
};

const settleAll = async (
  client: ServiceClient,
  scope: LedgerScope,
  finder: ContactFinder,
): Promise<number> => {
  let settled = 0;
  for (const pending of scope.pendingCreates()) {
    try {
      settled += (await settleLostCreate(pending, { client, scope, finder })).length;
    } catch (error) {
      // A 400 created nothing: settleLostCreate forgot the chunk, the records resolve afresh.
      if ((error as { status?: number }).status !== 400) throw error;
    }
  }
  return settled;
};

/**
 * Issue 15.1: a run that finds the target empty records so in the ledger; until a run of the scope
 * completes, the same command continues it: it lists the target once (a few pages), settles the
 * creates left pending against that list, and when the target holds nothing this ledger did not
 * write it resolves as the first run did, without a search per record. Otherwise it searches as a
 * first run into a non-empty target would, and says why.
 */
export const startResolution = async (options: {
  client: ServiceClient;
  scope: LedgerScope;
  runId: string;
  targetWasEmpty: boolean;
  staged: number;
}): Promise<ResolutionStart> => {
  const { client, scope } = options;
  if (options.targetWasEmpty) {
    // Nothing can have landed on an empty target: pending creates are resent without a lookup.
    const resumedCreates = await settleAll(client, scope, listedFinder([]));
    scope.beginContinuation({ runId: options.runId, startedAt: new Date().toISOString() });
    return { searchless: true, resumedCreates };
  }
  const previous = scope.continuation();
  if (!previous)
    return { searchless: false, resumedCreates: await settleAll(client, scope, searchFinder(client)) };

  const pendingKeys = scope.pendingCreates().reduce((n, p) => n + p.keys.length, 0);
  const scan = await unknownContacts(client, scope.contactIds(), pendingKeys);
  const listed = listedFinder(scan.foreign ? [] : scan.unknown, searchFinder(client));
  const resumedCreates = await settleAll(client, scope, scan.foreign ? searchFinder(client) : listed);
  const foreign = scan.foreign ? scan.unknown.length : listed.unclaimed();
  if (foreign > 0) {
    scope.endContinuation();
    const more = scan.foreign ? 'at least ' : '';
    return {
      searchless: false,
      resumedCreates,
      searchReason: `the target holds ${more}${foreign} contacts that run ${previous.runId} did not write: every record the ledger does not know is searched by e-mail`,
    };
  }
  const loaded = scope.contactCount();
  return {
    searchless: true,
    resumedCreates,
    continues: { runId: previous.runId, loaded, toGo: Math.max(0, options.staged - loaded) },
  };
};
