import { z } from 'zod';
import {
  contactResponseSchema,
  customFieldResponseSchema,
  envelopeSchema,
  groupResponseSchema,
  localContactSchema,
  reminderResponseSchema,
} from '../core/schemas/index.js';

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
  localContacts: envelopeSchema(
    z.looseObject({ contacts: z.array(localContactSchema), nextCursor: z.string().optional() }),
  ),
  localContact: envelopeSchema(z.looseObject({ contact: localContactSchema })),
  localGroups: envelopeSchema(z.looseObject({ groups: z.array(group) })),
  localCustomFields: envelopeSchema(z.looseObject({ custom_fields: z.array(customField) })),
  localReminders: envelopeSchema(z.looseObject({ reminders: z.array(reminder) })),
};
