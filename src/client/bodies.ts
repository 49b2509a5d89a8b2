import type { ContactJson, ContactWrite } from '../core/schemas/index.js';

/** An E1 element whose `data` may be JSON text already. */
export interface BulkUpdateInput {
  contactId: string;
  data: ContactWrite | ContactJson;
}

/** A contact's JSON text: placed as it is when the caller serialized it, else serialized here. */
const contactText = (contact: ContactWrite | ContactJson): string =>
  typeof contact === 'string' ? contact : JSON.stringify(contact);

/**
 * The body of `POST /v1/contacts/`: `{"contacts":[...]}` with each element's text joined as it is,
 * so a caller that hashed its texts sends exactly the bytes it hashed. For contact objects it is
 * byte for byte JSON.stringify({ contacts }).
 */
export const createContactsBody = (contacts: readonly (ContactWrite | ContactJson)[]): string =>
  `{"contacts":[${contacts.map(contactText).join(',')}]}`;

/** One E1 element as JSON text: what a chunk measures is what the body carries. */
export const bulkUpdateElementJson = (contactId: string, data: ContactWrite | ContactJson): string =>
  `{"contactId":${JSON.stringify(contactId)},"data":${contactText(data)}}`;

/** The body of E1: its elements' texts joined (JSON.stringify(elements) for objects). */
export const bulkUpdateBody = (elements: readonly BulkUpdateInput[]): string =>
  `[${elements.map((e) => bulkUpdateElementJson(e.contactId, e.data)).join(',')}]`;
