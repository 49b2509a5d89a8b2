import { z } from 'zod';

/** One problem with a request: where (`path`, and for E1 the element `index`) and what. */
export const errorDetailSchema = z.object({
  path: z.string(),
  message: z.string(),
  index: z.number().int().optional(),
});

export const errorPayloadSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.array(errorDetailSchema),
});

/** Success: HTTP 200 `{error: false, data}`; judge by status, never by `error` alone. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ error: z.boolean(), data, nextCursor: z.string().optional() });

export const errorEnvelopeSchema = z.object({ error: z.literal(true), data: errorPayloadSchema });

export type ErrorDetail = z.infer<typeof errorDetailSchema>;
export type ErrorPayload = z.infer<typeof errorPayloadSchema>;
