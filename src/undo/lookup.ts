import type { ServiceClient } from '../client/index.js';
import type { ContactResponse } from '../core/schemas/index.js';
import type { UpdateDetail } from '../load/previews.js';
import type { RunEffect } from '../state/index.js';

/** Enough for any name or address shared by a few contacts; the one we want is picked by id. */
const TAKE = 100;

/**
 * The contact as the service holds it now (its scalar fields), found as the run found it: by an
 * e-mail it has (exact), else by its name; archived ones included. There is no read by id.
 */
export const lookUpContact = async (
  client: ServiceClient,
  effect: RunEffect,
): Promise<ContactResponse | undefined> => {
  const detail = effect.detail as UpdateDetail;
  const queries = [
    ...(detail.email ? [{ searchQuery: detail.email, exactMatch: true }] : []),
    ...(detail.fullName ? [{ searchQuery: detail.fullName }] : []),
  ];
  for (const query of queries) {
    const page = await client.globalSearch({ ...query, archived: true, take: TAKE });
    const found = page.contacts.find((c) => c.id === effect.contactId);
    if (found) return found;
  }
  return undefined;
};
