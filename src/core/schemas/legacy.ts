import { z } from 'zod';
import { LIMITS } from './limits.js';
import { dateTime, uri, uuid } from './primitives.js';

const nullableText = z.string().nullable().optional();

/** E11 `changes`: the nullable fields the older endpoint accepts. */
export const legacyChangesSchema = z.strictObject({
  first_name: nullableText,
  last_name: nullableText,
  job_title: nullableText,
  description: nullableText,
  education: nullableText,
  image_url: uri.nullable().optional(),
  worknet: nullableText,
  socialnet: nullableText,
  microblog: nullableText,
  photonet: nullableText,
  chatapp: nullableText,
  last_seen_at: dateTime.nullable().optional(),
  next_reminder_at: dateTime.nullable().optional(),
  website: z.string().max(LIMITS.websiteMaxLength).nullable().optional(),
});

/** E11 body. */
export const legacyUpdateBodySchema = z.strictObject({
  update_contact_phone_numbers: z.boolean().optional(),
  contact_phone_numbers: z
    .array(
      z.strictObject({ contact_id: uuid, phone_number: z.string().min(1), label: z.string().optional() }),
    )
    .optional(),
  update_contact_emails: z.boolean().optional(),
  contact_emails: z.array(z.strictObject({ contact_id: uuid, email: z.string().min(1) })).optional(),
  contactId: uuid.optional(),
  changes: legacyChangesSchema.optional(),
});

export type LegacyUpdateBody = z.infer<typeof legacyUpdateBodySchema>;
