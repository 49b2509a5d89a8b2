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
  type CustomFieldCreate,
  type CustomFieldUpdate,
  type GroupCreate,
  type GroupUpdate,
  type LegacyUpdateBody,
  type ReminderCreate,
  type ReminderUpdate,
} from '../core/schemas/index.js';
import { bulkUpdateBody, createContactsBody, type BulkUpdateInput } from './bodies.js';
import { defineEndpoint } from './endpoint.js';
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
const reminderAnswer = envelopeSchema(z.looseObject({ reminder: answers.reminder }));
const groupAnswer = envelopeSchema(z.looseObject({ group: answers.group }));
const customFieldAnswer = envelopeSchema(z.looseObject({ custom_field: answers.customField }));

/** The service's endpoints (API.md E1-E11 and the bulk create of DESIGN.md), one entry each. */
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
  createReminder: defineEndpoint({
    method: 'POST',
    route: '/v1/reminders/',
    retry: 'create',
    request: reminderCreateBodySchema,
    response: reminderAnswer,
    parts: (reminder: ReminderCreate, opts?: CreateCallOptions) => ({ ...opts, body: { reminder } }),
    result: (answer) => answer.data.reminder,
  }),
  /** E6 */
  updateReminder: defineEndpoint({
    method: 'PUT',
    route: '/v1/reminders/{id}',
    retry: 'update',
    request: reminderUpdateBodySchema,
    response: reminderAnswer,
    parts: (id: string, reminder: ReminderUpdate, opts?: CallOptions) => ({
      ...opts,
      id,
      body: { reminder },
    }),
    result: (answer) => answer.data.reminder,
  }),
  /** E7 */
  createGroup: defineEndpoint({
    method: 'POST',
    route: '/v1/groups/',
    retry: 'create',
    request: groupCreateBodySchema,
    response: groupAnswer,
    parts: (group: GroupCreate, opts?: CreateCallOptions) => ({ ...opts, body: { group } }),
    result: (answer) => answer.data.group,
  }),
  /** E8 */
  updateGroup: defineEndpoint({
    method: 'PUT',
    route: '/v1/groups/{id}',
    retry: 'update',
    request: groupUpdateBodySchema,
    response: groupAnswer,
    parts: (id: string, group: GroupUpdate, opts?: CallOptions) => ({ ...opts, id, body: { group } }),
    result: (answer) => answer.data.group,
  }),
  /** E9 */
  createCustomField: defineEndpoint({
    method: 'POST',
    route: '/v1/custom-fields/',
    retry: 'create',
    request: customFieldCreateBodySchema,
    response: customFieldAnswer,
    parts: (field: CustomFieldCreate, opts?: CreateCallOptions) => ({
      ...opts,
      body: { custom_field: field },
    }),
    result: (answer) => answer.data.custom_field,
  }),
  /** E10 */
  updateCustomField: defineEndpoint({
    method: 'PUT',
    route: '/v1/custom-fields/{id}',
    retry: 'update',
    request: customFieldUpdateBodySchema,
    response: customFieldAnswer,
    parts: (id: string, field: CustomFieldUpdate, opts?: CallOptions) => ({
      ...opts,
      id,
      body: { custom_field: field },
    }),
    result: (answer) => answer.data.custom_field,
  }),
  /** E11, the older form: answers like E2. */
  legacyUpdateContact: defineEndpoint({
    method: 'PUT',
    route: '/api/rest/contacts/{id}',
    retry: 'update',
    request: legacyUpdateBodySchema,
    response: contactAnswer,
    parts: (id: string, body: LegacyUpdateBody, opts?: CallOptions) => ({ ...opts, id, body }),
    result: (answer) => answer.data.contact,
  }),
};
