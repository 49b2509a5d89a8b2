import { z } from 'zod';
import { uuid } from './primitives.js';

/** E7: a group needs a name (docs/design.md decides what docs/api-reference.md leaves open). */
export const groupCreateSchema = z.strictObject({
  name: z.string().trim().min(1),
  emoji: z.string().optional(),
  description: z.string().optional(),
  parent_id: uuid.optional(),
  parent: z.unknown().optional(),
  groups_contacts: z.array(z.strictObject({ contact_id: uuid, contact: z.unknown().optional() })).optional(),
});

/** E8: only the fields sent are modified. */
export const groupUpdateSchema = z.strictObject({
  name: z.string().trim().min(1).optional(),
  emoji: z.string().optional(),
  description: z.string().optional(),
  parent_id: uuid.optional(),
  parent: z.unknown().optional(),
});

export const groupCreateBodySchema = z.strictObject({ group: groupCreateSchema });
export const groupUpdateBodySchema = z.strictObject({ group: groupUpdateSchema });

export const groupResponseSchema = z.object({
  id: uuid,
  name: z.string(),
  color: z.string().nullable(),
  parent_group_id: uuid.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type GroupCreate = z.infer<typeof groupCreateSchema>;
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;
export type GroupResponse = z.infer<typeof groupResponseSchema>;
