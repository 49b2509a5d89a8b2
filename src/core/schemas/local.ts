import { z } from 'zod';

/**
 * `/_local/` inspection shape: everything stored for one contact. Scalar write fields appear under
 * their write names (null when not set), so any contact write object is a subset of what comes
 * back; lists come back as stored, with the group and custom field names added for readability.
 */
export const localContactSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  contact_emails: z.array(
    z.object({ email: z.string(), label: z.string().nullable(), ranking: z.number().nullable() }),
  ),
  contact_phone_numbers: z.array(
    z.object({
      phone_number: z.string(),
      phone_number_sanitized: z.string().nullable(),
      country_code: z.string().nullable(),
      label: z.string().nullable(),
      ranking: z.number().nullable(),
    }),
  ),
  groups_contacts: z.array(z.object({ group_id: z.string(), name: z.string() })),
  custom_fields: z.array(z.object({ id: z.string(), name: z.string(), text_value: z.string() })),
});

export type LocalContact = z.infer<typeof localContactSchema>;
