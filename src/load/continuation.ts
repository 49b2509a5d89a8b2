import type { ServiceClient } from '../client/index.js';
import type { LedgerScope } from '../state/index.js';
import type { Staging } from '../package/staging.js';
import { searchFinder, settleLostCreate, type ContactFinder } from './lost-creates.js';

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

/**
 * How many of the records still to go a continuation looks up before it trusts that the target
 * holds none of them: exact e-mail searches, whatever the size of the run (the "+ 20" of issue 15).
 */
export const CONTINUATION_SAMPLE = 15;

/** Nothing lands on a target that answers a create with a 400: settleLostCreate forgot the chunk. */
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
      if ((error as { status?: number }).status !== 400) throw error;
    }
  }
  return settled;
};

/** A finder for a target known empty: nothing can be there, every pending create is resent. */
const nothingThere: ContactFinder = { find: async () => undefined };

/** Deterministic (the same run sends the same searches), spread over the whole input. */
const lcg = (seed: number) => () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

/** Up to CONTINUATION_SAMPLE items drawn evenly from a stream (a reservoir: memory stays flat). */
class Reservoir {
  readonly items: string[] = [];
  private seen = 0;
  // Deterministic: the same input gives the same searches.
  private readonly random = lcg(15);

  offer(item: string): void {
    this.seen += 1;
    if (this.items.length < CONTINUATION_SAMPLE) this.items.push(item);
    else {
      const at = Math.floor(this.random() * this.seen);
      if (at < CONTINUATION_SAMPLE) this.items[at] = item;
    }
  }
}

/**
 * How many staged records the ledger does not hold yet, the first e-mails of a sample of them, and
 * of those an earlier run resolved to "create" (`runId` holds its resolutions), a sample of their
 * e-mails and how many there are.
 */
const sampleToGo = (staging: Staging, scope: LedgerScope, runId?: string) => {
  const toGo = new Reservoir();
  const creates = new Reservoir();
  let count = 0;
  let resolvedCreates = 0;
  for (const batch of staging.batches(1000)) {
    const known = scope.getContacts(batch.map((r) => r.key));
    const unknown = batch.filter((record) => !known.has(record.key));
    count += unknown.length;
    for (const record of unknown) {
      const email = record.contact.contact_emails?.[0]?.email;
      if (email !== undefined) toGo.offer(email);
    }
    if (runId === undefined) continue;
    for (const resolution of scope
      .getResolutions(
        runId,
        unknown.map((r) => r.key),
      )
      .values()) {
      if (resolution.contactId !== undefined) continue;
      resolvedCreates += 1;
      if (resolution.email !== undefined) creates.offer(resolution.email);
    }
  }
  return { emails: toGo.items, toGo: count, createEmails: creates.items, resolvedCreates };
};

/** How many of `emails` find, by exact search, a contact that this ledger did not write. */
const foreignHits = async (client: ServiceClient, scope: LedgerScope, emails: string[]): Promise<number> => {
  const found = await Promise.all(
    emails.map(async (email) => {
      const page = await client.globalSearch({
        searchQuery: email,
        exactMatch: true,
        archived: true,
        take: 1,
      });
      return page.contacts[0]?.id;
    }),
  );
  const ids = found.filter((id): id is string => id !== undefined);
  if (ids.length === 0) return 0;
  // Only when something was found are the ledger's ids read (all of them) to tell ours apart.
  const ours = scope.contactIds();
  return ids.filter((id) => !ours.has(id)).length;
};

interface StartOptions {
  client: ServiceClient;
  scope: LedgerScope;
  runId: string;
  targetWasEmpty: boolean;
  staging: Staging;
}

/**
 * Issue 15.1: a run keeps what it knew, and the same command continues it until a run of the
 * scope completes.
 * - A run that finds the target empty records so. Its continuation settles the creates left
 *   pending (each record looked up by e-mail, issue 15.4), then looks up a bounded sample of the
 *   records still to go: when none of them is on the target as a contact this ledger did not
 *   write, it resolves as the first run did, without a search per record; otherwise it searches
 *   as a first run into a non-empty target would, and says why.
 * - A run into a target that holds contacts keeps what each search decided (resolve.ts). Its
 *   continuation takes those resolutions over: records resolved to an existing contact are
 *   updated without a search; records resolved to "create" too, unless a sample of them is now on
 *   the target as contacts this ledger did not write (then those are searched again). Records no
 *   run resolved are searched.
 * Cost on top of the chunks: the records of the pending creates plus at most CONTINUATION_SAMPLE
 * searches per check, whatever the size of the target.
 */
export const startResolution = async (options: StartOptions): Promise<ResolutionStart> => {
  const { client, scope, runId } = options;
  if (options.targetWasEmpty) {
    // Nothing on the target: no earlier decision to update a contact holds, and nothing needs one.
    scope.clearResolutions();
    // Nothing can have landed on an empty target: pending creates are resent without a lookup.
    const resumedCreates = await settleAll(client, scope, nothingThere);
    scope.beginContinuation({ runId, startedAt: new Date().toISOString() });
    return { searchless: true, resumedCreates };
  }
  const previous = scope.continuation();
  const resumedCreates = await settleAll(client, scope, searchFinder(client));
  const adopted = scope.adoptResolutions(runId);
  if (!previous && !adopted) return { searchless: false, resumedCreates };

  const sample = sampleToGo(options.staging, scope, adopted ? runId : undefined);
  const loaded = scope.contactCount();
  let searchReason: string | undefined;
  if (previous) {
    const hits = await foreignHits(client, scope, sample.emails);
    if (hits === 0) {
      return {
        searchless: true,
        resumedCreates,
        continues: { runId: previous.runId, loaded, toGo: sample.toGo },
      };
    }
    scope.endContinuation();
    searchReason =
      `${hits} of ${sample.emails.length} records this run has not sent yet are already on the target, ` +
      `as contacts that run ${previous.runId} did not write: every record the ledger does not know is searched by e-mail`;
    if (!adopted) return { searchless: false, resumedCreates, searchReason };
  }
  const continues = { runId: adopted!.runId, loaded, toGo: sample.toGo };
  const hits = await foreignHits(client, scope, sample.createEmails);
  if (hits === 0) {
    return {
      searchless: false,
      resumedCreates,
      continues,
      reuse: { creates: true },
      ...(searchReason ? { searchReason } : {}),
    };
  }
  searchReason =
    `${hits} of ${sample.createEmails.length} records that run ${adopted!.runId} resolved to create and has not sent ` +
    `yet are already on the target, as contacts it did not write: those ${sample.resolvedCreates} records are searched again by e-mail`;
  return { searchless: false, resumedCreates, continues, reuse: { creates: false }, searchReason };
};
