import { createContactsBody } from '../client/bodies.js';
import { answerLost, isRequestError } from '../client/errors.js';
import type { ServiceClient } from '../client/index.js';
import type { ContactResponse, ContactWrite } from '../core/schemas/index.js';
import { normalizeText } from '../normalize/index.js';
import { assertAnsweredAsSent, holdsEmail } from './answer-check.js';
import { showsAsWritten } from './landed-creates.js';
import type { CreateJournal, KeyHonouring, PendingCreate, ScopeContacts } from '../state/index.js';

/** Finds the target contact that holds a record (as the search answered it), or undefined. */
export interface ContactFinder {
  find(write: ContactWrite, key: string): Promise<ContactResponse | undefined>;
}

/** Resolution searches at most a record's first 5 e-mails (docs/design.md "Request size"). */
const SEARCHED_EMAILS = 5;
/** A lost answer is checked and resent at most this often before the run gives up on it. */
const LOST_ANSWERS_TOLERATED = 6;

/** Every identity key (normalize/identity.ts) a stored contact answers to. */
const identitiesOf = (stored: ContactResponse): string[] => {
  // The answer schema is loose: the lists are there on every contact answer docs/api-reference.md shows.
  const contact = stored as ContactResponse & {
    contact_emails?: { email: string }[];
    contact_phone_numbers?: { phone_number_sanitized?: string | null }[];
  };
  const keys = (contact.contact_emails ?? []).map((e) => `email:${e.email}`);
  for (const phone of contact.contact_phone_numbers ?? []) {
    if (phone.phone_number_sanitized) keys.push(`phone:${phone.phone_number_sanitized}`);
  }
  const name = normalizeText(contact.full_name)?.toLowerCase();
  if (name !== undefined)
    keys.push(`name:${name}\u001f${normalizeText(contact.company)?.toLowerCase() ?? ''}`);
  return keys;
};

const emailsOf = (write: ContactWrite): string[] =>
  (write.contact_emails ?? []).slice(0, SEARCHED_EMAILS).map((e) => e.email);

/** What to search for a record without e-mail: its phone or name, as its identity key says. */
const identitySearch = (write: ContactWrite, key: string): string | undefined => {
  if (key.startsWith('phone:')) return key.slice('phone:'.length);
  if (key.startsWith('name:')) return write.full_name ?? undefined;
  return undefined;
};

/** Looks records up as resolution does: exact e-mail search, then identity for those without one. */
export const searchFinder = (client: ServiceClient): ContactFinder => ({
  async find(write, key) {
    for (const email of emailsOf(write)) {
      const page = await client.globalSearch({
        searchQuery: email,
        exactMatch: true,
        archived: true,
        take: 5,
      });
      // A hit whose answer shows it does not hold the e-mail is not this record's contact.
      const hit = page.contacts.find((c) => holdsEmail(c, email));
      if (hit) return hit;
    }
    const query = emailsOf(write).length === 0 ? identitySearch(write, key) : undefined;
    if (query === undefined) return undefined;
    const page = await client.globalSearch({ searchQuery: query, exactMatch: true, archived: true, take: 5 });
    return page.contacts.find((c) => identitiesOf(c).includes(key));
  },
});

/**
 * For a target that honours `Idempotency-Key`: nothing is looked up, the whole chunk is resent
 * under its own key, and the target answers with what it created under that key, or creates it.
 */
export const underItsKey: ContactFinder = { find: async () => undefined };

const contactsOf = (pending: PendingCreate): ContactWrite[] =>
  (JSON.parse(pending.body) as { contacts: ContactWrite[] }).contacts;

/**
 * A create whose answer was lost (a reset, a cut, a timeout after the body left, or a crash) is
 * checked, not trusted: its records are looked up on the target; the ones found are recorded, the
 * rest resent with the same Idempotency-Key (the found ones left out under a derived key). So each
 * person is stored once whether or not the target honours the key. Returns the ids in body order.
 * The contacts found are taken as this create's only when the whole chunk is found, each showing
 * what its record writes; otherwise they are someone else's, recorded to be updated with the
 * records' values.
 */
export const settleLostCreate = async (
  pending: PendingCreate,
  ctx: { client: ServiceClient; scope: CreateJournal & ScopeContacts & KeyHonouring; finder: ContactFinder },
): Promise<string[]> => {
  const ids = new Array<string>(pending.keys.length);
  let chunk = pending;
  let positions = pending.keys.map((_, i) => i);
  for (let lost = 1; ; lost++) {
    const contacts = contactsOf(chunk);
    const answers = await Promise.all(contacts.map((c, i) => ctx.finder.find(c, chunk.keys[i]!)));
    const found = answers.map((contact) => contact?.id);
    const missing = found.flatMap((id, i) => (id === undefined ? [i] : []));
    // A create is applied whole: it landed only if every record is found, each contact showing
    // what its record writes (names, title, company). Otherwise none of the contacts found is
    // this create's: someone else stored them. Their empty hash equals no write's, so the plan
    // updates them with the records' values instead of taking them as loaded, and no undo of this
    // run archives them.
    if (missing.length === 0 && answers.every((contact, i) => showsAsWritten(contact!, contacts[i]!))) {
      ctx.scope.completeCreate(chunk.idempotencyKey, found as string[]);
      positions.forEach((at, i) => (ids[at] = found[i]!));
      return ids;
    }
    if (missing.length < found.length) {
      ctx.scope.putContacts(
        found.flatMap((id, i) =>
          id === undefined ? [] : [{ key: chunk.keys[i]!, contactId: id, hash: '' }],
        ),
      );
      positions.forEach((at, i) => found[i] !== undefined && (ids[at] = found[i]!));
      ctx.scope.abandonCreate(chunk.idempotencyKey);
      if (missing.length === 0) return ids;
      chunk = {
        runId: chunk.runId,
        idempotencyKey: `${chunk.idempotencyKey}-r${lost}`,
        keys: missing.map((i) => chunk.keys[i]!),
        hashes: missing.map((i) => chunk.hashes[i]!),
        body: createContactsBody(missing.map((i) => contacts[i]!)),
      };
      positions = missing.map((i) => positions[i]!);
      ctx.scope.beginCreate(chunk);
    }
    try {
      const sent = contactsOf(chunk);
      const answered = await ctx.client.createContactsLossFinal(sent, {
        idempotencyKey: chunk.idempotencyKey,
        bodyJson: chunk.body,
        onReplayed: () => ctx.scope.recordKeysHonoured(true),
      });
      assertAnsweredAsSent(sent, answered, chunk.idempotencyKey);
      ctx.scope.completeCreate(
        chunk.idempotencyKey,
        answered.map((c) => c.id),
      );
      positions.forEach((at, i) => (ids[at] = answered[i]!.id));
      return ids;
    } catch (error) {
      if (isRequestError(error) && error.status === 400) ctx.scope.abandonCreate(chunk.idempotencyKey);
      if (!(isRequestError(error) && answerLost(error)) || lost >= LOST_ANSWERS_TOLERATED) throw error;
    }
  }
};
