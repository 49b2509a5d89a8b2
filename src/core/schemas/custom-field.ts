import { z } from 'zod';
import { FIELD_TYPES } from './limits.js';
import { uuid } from './primitives.js';

const categoriesSchema = z.array(z.strictObject({ category: z.string().min(1) }));

/** E9: name required; field_type defaults to `input` when absent. */
export const customFieldCreateSchema = z.strictObject({
  name: z.string().trim().min(1),
  field_type: z.enum(FIELD_TYPES).optional(),
  categories: categoriesSchema.optional(),
});

/** E10. */
export const customFieldUpdateSchema = z.strictObject({
  name: z.string().trim().min(1).optional(),
  field_type: z.enum(FIELD_TYPES).optional(),
  categories: categoriesSchema.optional(),
});

export const customFieldCreateBodySchema = z.strictObject({ custom_field: customFieldCreateSchema });
export const customFieldUpdateBodySchema = z.strictObject({ custom_field: customFieldUpdateSchema });

export const customFieldResponseSchema = z.object({
  id: uuid,
  name: z.string(),
  field_type: z.string(),
  categories: z.array(z.object({ category: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});

export type CustomFieldCreate = z.infer<typeof customFieldCreateSchema>;
export type CustomFieldUpdate = z.infer<typeof customFieldUpdateSchema>;
export type CustomFieldResponse = z.infer<typeof customFieldResponseSchema>;
