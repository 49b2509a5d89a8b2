import { z } from 'zod';
import { LIMITS } from './limits.js';

/** Query strings arrive as text; booleans are `true`/`false`. */
const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');
const take = z
  .string()
  .regex(/^\d+$/, 'take must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(LIMITS.takeMin).max(LIMITS.takeMax));

/** E3 query. */
export const searchQuerySchema = z.strictObject({
  fullName: z.string().optional(),
  take: take.optional(),
  cursor: z.string().optional(),
});

/** E4 query. `has_groups` is a boolean here (docs/design.md leaves its type to us). */
export const globalSearchQuerySchema = z.strictObject({
  searchQuery: z.string().optional(),
  archived: queryBoolean.optional(),
  minimal: queryBoolean.optional(),
  exactMatch: queryBoolean.optional(),
  enhanced: queryBoolean.optional(),
  take: take.optional(),
  cursor: z.string().optional(),
  has_groups: queryBoolean.optional(),
});

export type SearchQuery = z.input<typeof searchQuerySchema>;
export type GlobalSearchQuery = z.input<typeof globalSearchQuerySchema>;
