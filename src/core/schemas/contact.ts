import { z } from 'zod';
import { CONTACT_SOURCES, FREQUENCIES, INTERACTION_PROVIDERS, LIMITS } from './limits.js';
import { date, dateTime, opaqueObject, text, uri, uuid } from './primitives.js';

export const contactEmailSchema = z.strictObject({
  email: z.string().min(1),
  label: z.string().optional(),
  ranking: z.number().optional(),
});

export const contactPhoneSchema = z.strictObject({
  phone_number: z.string().min(1),
  country_code: z.string().optional(),
  phone_number_sanitized: z.string().optional(),
  label: z.string().optional(),
  ranking: z.number().optional(),
});

export const groupMembershipSchema = z.strictObject({ group_id: uuid });

export const customFieldValueSchema = z.strictObject({
  /** The custom field definition's id (docs/design.md). */
  id: uuid,
  type: z.string().optional(),
  text_value: z.string(),
  custom_field: z.unknown().optional(),
});

export const tagsOperationSchema = z.strictObject({
  append: z.array(z.strictObject({ tag_id: uuid })).optional(),
  remove: z.array(z.strictObject({ tag_id: uuid, contact_id: uuid })).optional(),
  replace: z.unknown().optional(),
});

export const relatedContactsOperationSchema = z.strictObject({
  append: z
    .array(
      z.strictObject({
        destination: uuid,
        source_contact: z.unknown().optional(),
        destination_contact: z.unknown().optional(),
      }),
    )
    .optional(),
  remove: z.array(z.strictObject({ source: uuid, destination: z.unknown().optional() })).optional(),
  replace: z.unknown().optional(),
});

const provider = z.enum(INTERACTION_PROVIDERS).nullable();

/**
 * The contact write shape (E1 `data`, E2 body, elements of the create body). Every field is
 * optional; unknown fields are refused so that a mapping typo surfaces as a 400 naming the key.
 */
export const contactWriteSchema = z.strictObject({
  full_name: text.optional(),
  first_name: text.optional(),
  last_name: text.optional(),
  description: text.optional(),
  job_title: text.optional(),
  company: text.optional(),
  education: text.optional(),
  legacy_location: text.optional(),
  starred: z.boolean().optional(),
  source: z.enum(CONTACT_SOURCES).optional(),
  coordinates: z
    .strictObject({
      operation: z.string(),
      data: z.strictObject({ latitude: z.number(), longitude: z.number() }),
    })
    .optional(),
  image_url: uri.nullable().optional(),
  image_source: uri.nullable().optional(),
  business_card_url: uri.nullable().optional(),
  website: z.string().max(LIMITS.websiteMaxLength).nullable().optional(),
  birthday: date.nullable().optional(),
  birthday_year: z
    .number()
    .int()
    .min(LIMITS.birthdayYearMin)
    .max(LIMITS.birthdayYearMax)
    .nullable()
    .optional(),
  frequency: z.enum(FREQUENCIES).nullable().optional(),
  last_seen_at: dateTime.nullable().optional(),
  never_keep_in_touch: z.boolean().optional(),
  next_reminder_at: dateTime.optional(),
  worknet: text.optional(),
  microblog: text.optional(),
  socialnet: text.optional(),
  photonet: text.optional(),
  chatapp: text.optional(),
  clipnet: text.optional(),
  videonet: text.optional(),
  msgapp_message_link: z.string().optional(),
  devmsg_message_link: z.string().optional(),
  worknet_message_link: z.string().optional(),
  photonet_message_link: z.string().optional(),
  msgapp_message_snippet: text.optional(),
  devmsg_message_snippet: text.optional(),
  worknet_last_message_snippet: text.optional(),
  photonet_message_snippet: text.optional(),
  msgapp_last_message_at: dateTime.nullable().optional(),
  devmsg_last_message_at: dateTime.nullable().optional(),
  worknet_last_message_at: dateTime.nullable().optional(),
  photonet_last_message_at: dateTime.nullable().optional(),
  worknet_data: opaqueObject.optional(),
  mail_last_interaction_at: dateTime.nullable().optional(),
  mail_last_interaction_provider_id: text.optional(),
  mail_last_interaction_subject: text.optional(),
  mail_last_interaction_provider: provider.optional(),
  cal_last_interaction_at: dateTime.nullable().optional(),
  cal_last_interaction_provider_id: text.optional(),
  cal_last_interaction_title: text.optional(),
  cal_last_interaction_provider: provider.optional(),
  phone_call_last_interaction_at: dateTime.nullable().optional(),
  phone_call_interaction_snippet: text.optional(),
  web_search_summary: opaqueObject.optional(),
  legacy_contact_addresses: z.array(z.strictObject({ formatted: z.string() })).optional(),
  contact_emails: z.array(contactEmailSchema).optional(),
  contact_phone_numbers: z.array(contactPhoneSchema).optional(),
  groups_contacts: z.array(groupMembershipSchema).optional(),
  tags_contacts: tagsOperationSchema.optional(),
  custom_fields: z.array(customFieldValueSchema).optional(),
  contact_birthdays: z.strictObject({ contact_id: uuid, last_dismissal_year: z.number() }).optional(),
  is_archived: z.boolean().optional(),
  ignore_merge: z.boolean().optional(),
  related_contacts: relatedContactsOperationSchema.optional(),
});

/** Names of every contact write field, for mapping checks and field-level validation. */
export const CONTACT_WRITE_FIELDS = Object.keys(contactWriteSchema.shape) as (keyof ContactWrite)[];

/** `POST /v1/contacts/` (docs/design.md). */
export const createContactsBodySchema = z.strictObject({
  contacts: z.array(contactWriteSchema),
});

/** E1 element. */
export const bulkUpdateElementSchema = z.strictObject({
  contactId: uuid,
  data: contactWriteSchema,
});
export const bulkUpdateBodySchema = z.array(bulkUpdateElementSchema);

/** Contact response shape (docs/api-reference.md). */
export const contactResponseSchema = z.object({
  id: uuid,
  full_name: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  job_title: z.string().nullable(),
  company: z.string().nullable(),
  description: z.string().nullable(),
  legacy_location: z.string().nullable(),
  website: z.string().nullable(),
  image_url: z.string().nullable(),
  starred: z.boolean(),
  is_archived: z.boolean(),
  birthday: z.string().nullable(),
  worknet: z.string().nullable(),
  microblog: z.string().nullable(),
  socialnet: z.string().nullable(),
  photonet: z.string().nullable(),
  frequency: z.string().nullable(),
  source: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type ContactWrite = z.infer<typeof contactWriteSchema>;
export type ContactEmail = z.infer<typeof contactEmailSchema>;
export type ContactPhone = z.infer<typeof contactPhoneSchema>;
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;
export type CreateContactsBody = z.infer<typeof createContactsBodySchema>;
export type BulkUpdateElement = z.infer<typeof bulkUpdateElementSchema>;

declare const contactJsonBrand: unique symbol;
/**
 * A contact write as JSON text, serialized once (load/write-object.ts): the ledger's hash is over
 * these bytes and the request bodies place them byte for byte (client/bodies.ts).
 */
export type ContactJson = string & { readonly [contactJsonBrand]: true };
export type ContactResponse = z.infer<typeof contactResponseSchema>;

/** The response shape's scalar fields (docs/api-reference.md "Contact, response shape"), but id and dates. */
export const CONTACT_SCALAR_FIELDS = [
  'full_name',
  'first_name',
  'last_name',
  'job_title',
  'company',
  'description',
  'legacy_location',
  'website',
  'image_url',
  'starred',
  'is_archived',
  'birthday',
  'worknet',
  'microblog',
  'socialnet',
  'photonet',
  'frequency',
  'source',
] as const satisfies readonly (keyof ContactResponse & keyof ContactWrite)[];
