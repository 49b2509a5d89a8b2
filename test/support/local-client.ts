import { z } from 'zod';
import {
  answers,
  bindEndpoints,
  type BoundEndpoints,
  clientOn,
  createCaller,
  defineEndpoint,
  type CallOptions,
  type ClientOptions,
  type ServiceClient,
} from '../../src/client/index.js';
import { envelopeSchema, localContactSchema, type LocalContact } from '../../src/core/schemas/index.js';

/**
 * The local service's inspection routes (`/_local/`, not part of the service's API), declared like
 * the client's own endpoints and sent through the same caller: tests read back what was stored.
 */
const LOCAL_ENDPOINTS = {
  contactsPage: defineEndpoint({
    method: 'GET',
    route: '/_local/contacts',
    retry: 'read',
    response: envelopeSchema(
      z.looseObject({ contacts: z.array(localContactSchema), nextCursor: z.string().optional() }),
    ),
    parts: (cursor: string | undefined, opts?: CallOptions) => ({ ...opts, query: { cursor } }),
    result: (answer) => answer.data,
  }),
  contact: defineEndpoint({
    method: 'GET',
    route: '/_local/contacts/{id}',
    retry: 'read',
    response: envelopeSchema(z.looseObject({ contact: localContactSchema })),
    parts: (id: string, opts?: CallOptions) => ({ ...opts, id }),
    result: (answer) => answer.data.contact,
  }),
  groups: defineEndpoint({
    method: 'GET',
    route: '/_local/groups',
    retry: 'read',
    response: envelopeSchema(z.looseObject({ groups: z.array(answers.group) })),
    parts: (opts?: CallOptions) => ({ ...opts }),
    result: (answer) => answer.data.groups,
  }),
  customFields: defineEndpoint({
    method: 'GET',
    route: '/_local/custom-fields',
    retry: 'read',
    response: envelopeSchema(z.looseObject({ custom_fields: z.array(answers.customField) })),
    parts: (opts?: CallOptions) => ({ ...opts }),
    result: (answer) => answer.data.custom_fields,
  }),
  reminders: defineEndpoint({
    method: 'GET',
    route: '/_local/reminders',
    retry: 'read',
    response: envelopeSchema(z.looseObject({ reminders: z.array(answers.reminder) })),
    parts: (opts?: CallOptions) => ({ ...opts }),
    result: (answer) => answer.data.reminders,
  }),
};

type Bound = BoundEndpoints<typeof LOCAL_ENDPOINTS>;

export interface LocalInspection extends Omit<Bound, 'contactsPage'> {
  /** Every contact stored for the key, all pages read. */
  contacts(opts?: CallOptions): Promise<LocalContact[]>;
}

/** A service client that can also read back what the local service stored. */
export type LocalClient = ServiceClient & { local: LocalInspection };

export function createLocalClient(options: ClientOptions): LocalClient {
  const caller = createCaller(options);
  const { contactsPage, ...rest } = bindEndpoints(LOCAL_ENDPOINTS, caller.invoke);
  const contacts = async (opts?: CallOptions): Promise<LocalContact[]> => {
    const all: LocalContact[] = [];
    let cursor: string | undefined;
    do {
      const page = await contactsPage(cursor, opts);
      all.push(...page.contacts);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return all;
  };
  return { ...clientOn(caller), local: { ...rest, contacts } };
}
