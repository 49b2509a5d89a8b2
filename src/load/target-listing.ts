import type { ServiceClient } from '../client/index.js';
import type { ContactResponse } from '../core/schemas/index.js';
import { LIMITS } from '../core/schemas/limits.js';

/** What paging the target's whole contact list found. */
export interface TargetListing {
  /** Contacts on the target, archived ones included. */
  listed: number;
  /** Of those, the ones whose id the ledger does not hold for this target and user. */
  foreign: number;
  /** Requests it took: one per page, and one more when the target refused the large page. */
  pages: number;
}

/**
 * Pages the target's contacts (E4 with no search text, archived included) and counts those the
 * ledger did not write. A check that cannot miss a contact added elsewhere: the API
 * (docs/api-reference.md) gives no count of contacts, nor an order or a filter by time, so it
 * costs one request per page, and the page is the largest the local service gives
 * (`LIMITS.takeMax`). `API.md` names no maximum: a target that answers that page with a 400 is
 * paged by `LIMITS.takeFallback` instead, one refused request more; one that gives fewer per page
 * than asked is followed by its cursor as any other. `onForeign` sees each contact the ledger does
 * not hold.
 */
export const listTarget = async (
  client: ServiceClient,
  ours: ReadonlySet<string>,
  onForeign?: (contact: ContactResponse) => void,
): Promise<TargetListing> => {
  let listed = 0;
  let foreign = 0;
  let pages = 0;
  let take: number = LIMITS.takeMax;
  let cursor: string | undefined;
  for (;;) {
    pages += 1;
    let page;
    try {
      page = await client.globalSearch({ archived: true, take, ...(cursor !== undefined ? { cursor } : {}) });
    } catch (error) {
      if (!refusedLargePage(error, take, cursor)) throw error;
      take = LIMITS.takeFallback;
      continue;
    }
    listed += page.contacts.length;
    for (const contact of page.contacts) {
      if (ours.has(contact.id)) continue;
      foreign += 1;
      onForeign?.(contact);
    }
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  return { listed, foreign, pages };
};

/** The first page asked at the large size, answered 400: the size is what the target refused. */
const refusedLargePage = (error: unknown, take: number, cursor: string | undefined): boolean =>
  cursor === undefined && take > LIMITS.takeFallback && (error as { status?: number }).status === 400;
