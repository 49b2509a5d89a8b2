import type { ServiceClient } from '../client/index.js';
import type { ContactResponse } from '../core/schemas/index.js';
import { LIMITS } from '../core/schemas/limits.js';

/** What paging the target's whole contact list found. */
export interface TargetListing {
  /** Contacts on the target, archived ones included. */
  listed: number;
  /** Of those, the ones whose id the ledger does not hold for this target and user. */
  foreign: number;
  /** Requests it took: one per `LIMITS.takeMax` contacts. */
  pages: number;
}

/**
 * Pages the target's contacts (E4 with no search text, archived included, the largest `take`) and
 * counts those the ledger did not write. A check that cannot miss a contact added elsewhere: the
 * API (docs/api-reference.md) gives no count of contacts, nor an order or a filter by time, so it
 * costs one request per 100 contacts on the target. `onForeign` sees each contact the ledger does
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
  let cursor: string | undefined;
  do {
    const page = await client.globalSearch({
      archived: true,
      take: LIMITS.takeMax,
      ...(cursor !== undefined ? { cursor } : {}),
    });
    pages += 1;
    listed += page.contacts.length;
    for (const contact of page.contacts) {
      if (ours.has(contact.id)) continue;
      foreign += 1;
      onForeign?.(contact);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { listed, foreign, pages };
};
