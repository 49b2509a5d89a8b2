import { z } from 'zod';
import { LIMITS } from '../core/schemas/index.js';
import { ImportError } from '../core/errors/index.js';
import { isSupportedRegion } from '../normalize/index.js';

/** `--max-rejects N` or `N%`: how many rejected + failed records a run may have and still exit 0. */
export type RejectThreshold = { count: number } | { percent: number };

const maxRejectsSchema = z.union([
  z
    .number()
    .int()
    .min(0)
    .transform((count): RejectThreshold => ({ count })),
  z
    .string()
    .regex(/^\d+(\.\d+)?%?$/, 'expected a whole number or a percentage such as 5%')
    .transform((text): RejectThreshold =>
      text.endsWith('%') ? { percent: Number(text.slice(0, -1)) } : { count: Number(text) },
    ),
]);

/**
 * DESIGN.md "Request size": the default body limit, under the local service's 5 MB (5 MiB) and
 * under a remote target's 5 MB (5,000,000 bytes) with room for headers and our arithmetic.
 */
export const DEFAULT_MAX_BODY_BYTES = 4_900_000;

/** Run options are checked once here, at the boundary; the stages trust them. */
export const runSettingsSchema = z.object({
  inputs: z.array(z.string().min(1)).min(1, 'at least one input file is needed'),
  /** The worksheet of the .xlsx inputs to read (else the pipeline's, else the first visible one). */
  sheet: z.string().min(1, 'expected a sheet name').optional(),
  dryRun: z.boolean().default(false),
  outDir: z.string().min(1).optional(),
  stateDir: z.string().min(1).default('.contact-import'),
  chunkSize: z.number().int().min(1).max(LIMITS.maxBulkDefault).default(100),
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Seconds: the client's base request timeout and its start probe's (`--timeout`). */
  timeout: z.number().positive('expected a number of seconds above 0').max(3600).optional(),
  /** `--max-body-bytes`: no request body is larger; a record that fits no request is rejected. */
  maxBodyBytes: z
    .number()
    .int()
    .min(64 * 1024, 'expected at least 65536 bytes')
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_MAX_BODY_BYTES),
  match: z.enum(['email', 'none']).default('email'),
  region: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'expected a two-letter region code such as US')
    .transform((r) => r.toUpperCase())
    .refine(
      isSupportedRegion,
      'not a region libphonenumber knows; expected an ISO 3166 code such as US or GB',
    )
    .optional(),
  maxRejects: maxRejectsSchema.default({ count: 0 }),
  strict: z.boolean().default(false),
  /** Read every input even when it is byte-identical to the last run's (no rerun shortcut). */
  reread: z.boolean().default(false),
});

export type RunSettingsInput = z.input<typeof runSettingsSchema>;
export type RunSettings = z.output<typeof runSettingsSchema>;

export const parseRunSettings = (input: RunSettingsInput): RunSettings => {
  const result = runSettingsSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = issue.path.join('.');
  throw new ImportError('config_invalid', `option ${key}: ${issue.message}`, { field: key });
};

export const rejectLimit = (threshold: RejectThreshold, read: number): number =>
  'count' in threshold ? threshold.count : Math.floor((threshold.percent / 100) * read);
