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

/**
 * The first e-mails of up to CONTINUATION_SAMPLE staged records the ledger does not hold yet,
 * drawn evenly from all of them (a reservoir, so memory does not grow with the input), and how
 * many records are still to go.
 */
const sampleToGo = (staging: Staging, scope: LedgerScope): { emails: string[]; toGo: number } => {
  const random = lcg(15);
  const emails: string[] = [];
  let toGo = 0;
  let seen = 0;
  for (const batch of staging.batches(1000)) {
    const known = scope.getContacts(batch.map((r) => r.key));
    for (const record of batch) {
      if (known.has(record.key)) continue;
      toGo += 1;
      const email = record.contact.contact_emails?.[0]?.email;
      if (email === undefined) continue;
      seen += 1;
      if (emails.length < CONTINUATION_SAMPLE) emails.push(email);
      else {
        const at = Math.floor(random() * seen);
        if (at < CONTINUATION_SAMPLE) emails[at] = email;
      }
    }
  }
  return { emails, toGo };
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

/**
 * Issue 15.1: a run that finds the target empty records so in the ledger; until a run of the scope
 * completes, the same command continues it. It settles the creates left pending (each record
 * looked up by e-mail, issue 15.4), then looks up a bounded sample of the records still to go:
 * when none of them is on the target as a contact this ledger did not write, it resolves as the
 * first run did, without a search per record. Otherwise it searches as a first run into a
 * non-empty target would, and says why. Cost: the records of the pending creates plus
 * CONTINUATION_SAMPLE searches, whatever the size of the target.
 */
export const startResolution = async (options: {
  client: ServiceClient;
  scope: LedgerScope;
  runId: string;
  targetWasEmpty: boolean;
  staging: Staging;
}): Promise<ResolutionStart> => {
  const { client, scope } = options;
  if (options.targetWasEmpty) {
    // Nothing can have landed on an empty target: pending creates are resent without a lookup.
    const resumedCreates = await settleAll(client, scope, nothingThere);
    scope.beginContinuation({ runId: options.runId, startedAt: new Date().toISOString() });
    return { searchless: true, resumedCreates };
  }
  const previous = scope.continuation();
  const resumedCreates = await settleAll(client, scope, searchFinder(client));
  if (!previous) return { searchless: false, resumedCreates };

  const sample = sampleToGo(options.staging, scope);
  const hits = await foreignHits(client, scope, sample.emails);
  if (hits > 0) {
    scope.endContinuation();
    return {
      searchless: false,
      resumedCreates,
      searchReason:
        `${hits} of ${sample.emails.length} records this run has not sent yet are already on the target, ` +
        `as contacts that run ${previous.runId} did not write: every record the ledger does not know is searched by e-mail`,
    };
  }
  const loaded = scope.contactCount();
  return {
    searchless: true,
    resumedCreates,
    continues: { runId: previous.runId, loaded, toGo: sample.toGo },
  };
};
