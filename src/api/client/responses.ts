import { z } from 'zod';
import {
  contactResponseSchema,
  customFieldResponseSchema,
  envelopeSchema,
  groupResponseSchema,
  localContactSchema,
  reminderResponseSchema,
} from '../schemas/index.js';

/**
 * What each endpoint's success answer must look like. Loose on purpose: fields the service adds
 * are kept and passed on, only the fields callers rely on are checked.
 */
const contact = contactResponseSchema.loose();
const reminder = reminderResponseSchema.loose();
const group = groupResponseSchema.loose();
const customField = customFieldResponseSchema.loose();

export const responses = {
  createContacts: envelopeSchema(z.looseObject({ contacts: z.array(contact) })),
  bulkUpdate: envelopeSchema(z.looseObject({ count: z.number().int().nonnegative() })),
  contact: envelopeSchema(z.looseObject({ contact })),
  search: envelopeSchema(z.looseObject({ contacts: z.array(contact), nextCursor: z.string().optional() })),
  globalSearch: envelopeSchema(z.array(contact)),
  reminder: envelopeSchema(z.looseObject({ reminder })),
  group: envelopeSchema(z.looseObject({ group })),
  customField: envelopeSchema(z.looseObject({ custom_field: customField })),
  localContacts: envelopeSchema(listOf('contacts', localContactSchema)),
  localContact: envelopeSchema(oneOf('contact', localContactSchema)),
  localGroups: envelopeSchema(listOf('groups', group)),
  localCustomFields: envelopeSchema(listOf('custom_fields', customField)),
  localReminders: envelopeSchema(listOf('reminders', reminder)),
};

/** `/_local/` lists: a bare array or `{<key>: [...]}`, read to a bare array. */
function listOf<T extends z.ZodType>(key: string, item: T) {
  return z.union([
    z.array(item),
    z.looseObject({ [key]: z.array(item) }).transform((data) => data[key] as z.output<T>[]),
  ]);
}

/** A `/_local/` item: bare or `{<key>: {...}}`, read to the item. */
function oneOf<T extends z.ZodType>(key: string, item: T) {
  return z.union([z.looseObject({ [key]: item }).transform((data) => data[key] as z.output<T>), item]);
}
