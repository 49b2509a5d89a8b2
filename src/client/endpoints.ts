import { z } from 'zod';
import {
  bulkUpdateBodySchema,
  contactResponseSchema,
  contactWriteSchema,
  createContactsBodySchema,
  customFieldCreateBodySchema,
  customFieldResponseSchema,
  customFieldUpdateBodySchema,
  envelopeSchema,
  groupCreateBodySchema,
  groupResponseSchema,
  groupUpdateBodySchema,
  legacyUpdateBodySchema,
  reminderCreateBodySchema,
  reminderResponseSchema,
  reminderUpdateBodySchema,
  type ContactJson,
  type ContactWrite,
  type LegacyUpdateBody,
} from '../core/schemas/index.js';
import { bulkUpdateBody, createContactsBody, type BulkUpdateInput } from './bodies.js';
import { defineEndpoint, endpointKey, type AnyEndpoint } from './endpoint.js';
import type {
  CallOptions,
  CreateCallOptions,
  CreateContactsOptions,
  GlobalSearchParams,
  SearchContactsParams,
} from './types.js';

/**
 * Success answers are checked loosely on purpose: fields the service adds are kept and passed on,
 * only the fields callers rely on are checked.
 */
export const answers = {
  contact: contactResponseSchema.loose(),
  reminder: reminderResponseSchema.loose(),
  group: groupResponseSchema.loose(),
  customField: customFieldResponseSchema.loose(),
};
const contactAnswer = envelopeSchema(z.looseObject({ contact: answers.contact }));

/** `{ <name>: value }`: how E5-E10 wrap the one object they send and answer. */
type Wrapped<Name extends string> = z.ZodType<{ [key in Name]: unknown }>;

/** The answer of E5-E10: the object under the name it was sent under. */
const wrappedAnswer = <Name extends string, Answer extends z.ZodType>(name: Name, answer: Answer) =>
  envelopeSchema(z.looseObject({ [name]: answer } as { [key in Name]: Answer }));

/** E5, E7, E9: POST one object under `name`, answered with it. */
const createOne = <Name extends string, Body extends Wrapped<Name>, Answer extends z.ZodType>(
  route: string,
  name: Name,
  request: Body,
  answer: Answer,
) =>
  defineEndpoint({
    method: 'POST',
    route,
    retry: 'create',
    request,
    response: wrappedAnswer(name, answer),
    parts: (value: z.output<Body>[Name], opts?: CreateCallOptions) => ({
      ...opts,
      body: { [name]: value } as z.output<Body>,
    }),
    // Checked by `response`: the object under `name` is `answer`'s output.
    result: (answered) => answered.data[name] as z.output<Answer>,
  });

/** E6, E8, E10: PUT one object under `name` to `{id}`, answered with it. */
const updateOne = <Name extends string, Body extends Wrapped<Name>, Answer extends z.ZodType>(
  route: string,
  name: Name,
  request: Body,
  answer: Answer,
) =>
  defineEndpoint({
    method: 'PUT',
    route,
    retry: 'update',
    request,
    response: wrappedAnswer(name, answer),
    parts: (id: string, value: z.output<Body>[Name], opts?: CallOptions) => ({
      ...opts,
      id,
      body: { [name]: value } as z.output<Body>,
    }),
    // Checked by `response`: the object under `name` is `answer`'s output.
    result: (answered) => answered.data[name] as z.output<Answer>,
  });

/** The service's endpoints (docs/api-reference.md E1-E11, docs/design.md's bulk create), one entry each. */
export const API_ENDPOINTS = {
  createContacts: defineEndpoint({
    method: 'POST',
    route: '/v1/contacts/',
    retry: 'create',
    request: createContactsBodySchema,
    response: envelopeSchema(z.looseObject({ contacts: z.array(answers.contact) })),
    // Built from the elements' texts as they are (bodies.ts): the bytes a caller hashed are sent.
    parts: (contacts: readonly (ContactWrite | ContactJson)[], opts?: CreateContactsOptions) => ({
      ...opts,
      bodyJson: opts?.bodyJson ?? createContactsBody(contacts),
    }),
    result: (answer) => answer.data.contacts,
  }),
  /** E1: `count` is the number updated; unknown ids are skipped, so it can be lower. */
  bulkUpdateContacts: defineEndpoint({
    method: 'PUT',
    route: '/v1/contacts/',
    retry: 'update',
    request: bulkUpdateBodySchema,
    response: envelopeSchema(z.looseObject({ count: z.number().int().nonnegative() })),
    parts: (elements: readonly BulkUpdateInput[], opts?: CallOptions) => ({
      ...opts,
      bodyJson: bulkUpdateBody(elements),
    }),
    result: (answer) => ({ count: answer.data.count }),
  }),
  /** E2 */
  updateContact: defineEndpoint({
    method: 'PUT',
    route: '/v1/contacts/{id}',
    retry: 'update',
    request: contactWriteSchema,
    response: contactAnswer,
    parts: (id: string, data: ContactWrite, opts?: CallOptions) => ({ ...opts, id, body: data }),
    result: (answer) => answer.data.contact,
  }),
  /** E3 (query checked by the service's searchQuerySchema). */
  searchContacts: defineEndpoint({
    method: 'GET',
    route: '/v1/contacts/search',
    retry: 'read',
    response: envelopeSchema(
      z.looseObject({ contacts: z.array(answers.contact), nextCursor: z.string().optional() }),
    ),
    parts: (query: SearchContactsParams, opts?: CallOptions) => ({ ...opts, query: { ...query } }),
    result: ({ data: { contacts, nextCursor } }) =>
      nextCursor !== undefined ? { contacts, nextCursor } : { contacts },
  }),
  /** E4 (query checked by the service's globalSearchQuerySchema); also the start probe. */
  globalSearch: defineEndpoint({
    method: 'GET',
    route: '/v1/search/contacts',
    retry: 'read',
    response: envelopeSchema(z.array(answers.contact)),
    parts: (query: GlobalSearchParams, opts?: CallOptions) => ({ ...opts, query: { ...query } }),
    result: ({ data, nextCursor }) =>
      nextCursor !== undefined ? { contacts: data, nextCursor } : { contacts: data },
  }),
  /** E5 */
  createReminder: createOne('/v1/reminders/', 'reminder', reminderCreateBodySchema, answers.reminder),
  /** E6 */
  updateReminder: updateOne('/v1/reminders/{id}', 'reminder', reminderUpdateBodySchema, answers.reminder),
  /** E7 */
  createGroup: createOne('/v1/groups/', 'group', groupCreateBodySchema, answers.group),
  /** E8 */
  updateGroup: updateOne('/v1/groups/{id}', 'group', groupUpdateBodySchema, answers.group),
  /** E9 */
  createCustomField: createOne(
    '/v1/custom-fields/',
    'custom_field',
    customFieldCreateBodySchema,
    answers.customField,
  ),
  /** E10 */
  updateCustomField: updateOne(
    '/v1/custom-fields/{id}',
    'custom_field',
    customFieldUpdateBodySchema,
    answers.customField,
  ),
  /** E11, the older form: answers like E2. */
  legacyUpdateContact: defineEndpoint({
    method: 'PUT',
    route: '/api/rest/contacts/{id}',
    base: 'legacy',
    retry: 'update',
    request: legacyUpdateBodySchema,
    response: contactAnswer,
    parts: (id: string, body: LegacyUpdateBody, opts?: CallOptions) => ({ ...opts, id, body }),
    result: (answer) => answer.data.contact,
  }),
};

/** docs/api-reference.md's endpoint numbers, by method and route; the bulk create is docs/design.md's. */
const API_NUMBERS: Readonly<Record<string, string>> = {
  'POST /v1/contacts/': 'the bulk create',
  'PUT /v1/contacts/': 'E1',
  'PUT /v1/contacts/{id}': 'E2',
  'GET /v1/contacts/search': 'E3',
  'GET /v1/search/contacts': 'E4',
  'POST /v1/reminders/': 'E5',
  'PUT /v1/reminders/{id}': 'E6',
  'POST /v1/groups/': 'E7',
  'PUT /v1/groups/{id}': 'E8',
  'POST /v1/custom-fields/': 'E9',
  'PUT /v1/custom-fields/{id}': 'E10',
  'PUT /api/rest/contacts/{id}': 'E11',
};

/** How messages name an endpoint: `E7 \`POST /v1/groups/\``. */
export const endpointName = (endpoint: Pick<AnyEndpoint, 'method' | 'route'>): string => {
  const key = endpointKey(endpoint);
  const number = API_NUMBERS[key];
  return number === undefined ? `\`${key}\`` : `${number} \`${key}\``;
};
