import type { ServiceClient } from '../client/index.js';
import type { ContactResponse } from '../core/schemas/index.js';

/** Enough for the few contacts that share an e-mail or a name; the one wanted is picked by id. */
const TAKE = 100;

/**
 * The contact as the service holds it now (archived or not), found by an e-mail the scope sent it,
 * else its name: the API has no read by id. Undefined when neither finds it.
 */
export const findContact = async (
  client: ServiceClient,
  contactId: string,
  sent: { emails: string[]; fields: Record<string, string> } | undefined,
): Promise<ContactResponse | undefined> => {
  const queries = [
    ...(sent?.emails[0] ? [{ searchQuery: sent.emails[0], exactMatch: true }] : []),
    ...(sent?.fields.full_name ? [{ searchQuery: sent.fields.full_name }] : []),
  ];
  for (const query of queries) {
    const page = await client.globalSearch({ ...query, archived: true, take: TAKE });
    const found = page.contacts.find((c) => c.id === contactId);
    if (found) return found;
  }
  return undefined;
};
