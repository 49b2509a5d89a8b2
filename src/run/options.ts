import { z } from 'zod';
import { ImportError } from '../core/errors/index.js';
import { isSupportedRegion } from '../normalize/index.js';
import { nearest } from '../core/nearest.js';
import { RUN_BOUNDS, RUN_DEFAULTS } from './defaults.js';

/** `--max-rejects N` or `N%`: how many rejected + failed records a run may have and still exit 0. */
export type RejectThreshold = { count: number } | { percent: number };

/** `N` or `P%` (a flag's text, or a number from a library caller): a count or a share. */
const countOrPercent = (pattern: RegExp, example: string) =>
  z.union([
    z
      .number()
      .int()
      .min(0)
      .transform((count): RejectThreshold => ({ count })),
    z
      .string()
      .regex(pattern, `expected a whole number or a percentage such as ${example}`)
      .transform((text): RejectThreshold =>
        text.endsWith('%') ? { percent: Number(text.slice(0, -1)) } : { count: Number(text) },
      ),
  ]);

const maxRejectsSchema = countOrPercent(/^\d+(\.\d+)?%?$/, '5%');
/** An archive count is whole; a share may have decimals. */
const maxArchiveSchema = countOrPercent(/^\d+(\.\d+)?%$|^\d+$/, '10%');

/** docs/design.md "Request size": the default body limit (defaults.ts). */
export const DEFAULT_MAX_BODY_BYTES = RUN_DEFAULTS.maxBodyBytes;

/**
 * Run options are checked once here, at the boundary; the stages trust them. Every default is
 * RUN_DEFAULTS' (defaults.ts), applied here and nowhere else.
 */
export const runSettingsSchema = z
  .object({
    inputs: z.array(z.string().min(1)).min(1, 'at least one input file is needed'),
    /** The worksheet of the .xlsx inputs to read (else the pipeline's, else the first visible one). */
    sheet: z.string().min(1, 'expected a sheet name').optional(),
    dryRun: z.boolean().default(RUN_DEFAULTS.dryRun),
    outDir: z.string().min(1).optional(),
    stateDir: z.string().min(1).default(RUN_DEFAULTS.stateDir),
    chunkSize: z
      .number()
      .int()
      .min(RUN_BOUNDS.chunkSize.min)
      .max(RUN_BOUNDS.chunkSize.max)
      .default(RUN_DEFAULTS.chunkSize),
    concurrency: z
      .number()
      .int()
      .min(RUN_BOUNDS.concurrency.min)
      .max(RUN_BOUNDS.concurrency.max)
      .default(RUN_DEFAULTS.concurrency),
    /** Seconds: the client's base request timeout and its start probe's (`--timeout`). */
    timeout: z
      .number()
      .positive('expected a number of seconds above 0')
      .max(RUN_BOUNDS.timeout.max)
      .optional(),
    /** Seconds (`--max-wait`): a longer `Retry-After` or pacing wait stops the run (`target_busy`). */
    maxWait: z
      .number()
      .int()
      .min(RUN_BOUNDS.maxWait.min)
      .max(RUN_BOUNDS.maxWait.max)
      .default(RUN_DEFAULTS.maxWait),
    /** `--max-body-bytes`: no request body is larger; a record that fits no request is rejected. */
    maxBodyBytes: z
      .number()
      .int()
      .min(RUN_BOUNDS.maxBodyBytes.min, `expected at least ${RUN_BOUNDS.maxBodyBytes.min} bytes`)
      .max(RUN_BOUNDS.maxBodyBytes.max)
      .default(RUN_DEFAULTS.maxBodyBytes),
    match: z.enum(['email', 'none']).default(RUN_DEFAULTS.match),
    region: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'expected a two-letter region code such as US')
      .transform((r) => r.toUpperCase())
      .refine(
        isSupportedRegion,
        'not a region libphonenumber knows; expected an ISO 3166 code such as US or GB',
      )
      .optional(),
    maxRejects: maxRejectsSchema.prefault(RUN_DEFAULTS.maxRejects),
    strict: z.boolean().default(RUN_DEFAULTS.strict),
    /** `--sync NAME`: the inputs are the truth for the contacts of sync scope NAME (src/sync/). */
    sync: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected a name of letters, digits, . _ - (up to 64)')
      .optional(),
    /** `--max-archive N|P%`: the most contacts one sync run may archive (default 10%, at least 5). */
    maxArchive: maxArchiveSchema.optional(),
    /** Read every input even when it is byte-identical to the last run's (no rerun shortcut). */
    reread: z.boolean().default(RUN_DEFAULTS.reread),
    /** `--candidates off`: no duplicate candidates, no candidates.csv. */
    candidates: z.enum(['on', 'off']).default(RUN_DEFAULTS.candidates),
    /**
     * `--merge-candidates FILE|likely`: merge the pairs a reviewed candidates.csv says `merge`, or
     * the whole `likely` band (src/candidates/merge-plan.ts). Absent: nothing merged on a guess.
     */
    mergeCandidates: z.string().min(1, 'expected a reviewed candidates.csv or `likely`').optional(),
  })
  .strict();

export type RunSettingsInput = z.input<typeof runSettingsSchema>;
/** Frozen (parseRunSettings): a stage reads the settings, none changes them. */
export type RunSettings = Readonly<z.output<typeof runSettingsSchema>>;

/**
 * `otherKeys`: the keys of the caller's options that are not settings (runImport's pipeline,
 * target, signal...). Any other key is refused, naming the one meant (`out` -> `outDir`): a
 * mistyped key must not leave a run writing where its caller did not ask.
 */
export const parseRunSettings = (input: RunSettingsInput, otherKeys: readonly string[] = []): RunSettings => {
  const settings: Record<string, unknown> = { ...input };
  for (const key of otherKeys) delete settings[key];
  const known = [...Object.keys(runSettingsSchema.shape), ...otherKeys];
  const unknown = Object.keys(settings).find((key) => !(key in runSettingsSchema.shape));
  if (unknown !== undefined) {
    const meant =
      nearest(unknown, known) ?? known.find((key) => key.toLowerCase().startsWith(unknown.toLowerCase()));
    throw new ImportError(
      'config_invalid',
      `unknown option ${unknown}${meant ? `; did you mean ${meant}?` : `; the options are ${known.join(', ')}`}`,
      { field: unknown },
    );
  }
  // Checked once a run: zod's compiled fast path would cost more to build than it saves.
  const result = runSettingsSchema.safeParse(settings, { jitless: true });
  if (result.success && result.data.maxArchive !== undefined && result.data.sync === undefined) {
    throw new ImportError('config_invalid', 'option maxArchive: --max-archive needs --sync NAME', {
      field: 'maxArchive',
    });
  }
  if (result.success && result.data.mergeCandidates !== undefined && result.data.candidates === 'off') {
    throw new ImportError(
      'config_invalid',
      'option mergeCandidates: --merge-candidates needs the candidates (drop --candidates off)',
      { field: 'mergeCandidates' },
    );
  }
  if (result.success) {
    Object.freeze(result.data.inputs);
    Object.freeze(result.data.maxRejects);
    if (result.data.maxArchive) Object.freeze(result.data.maxArchive);
    return Object.freeze(result.data);
  }
  const issue = result.error.issues[0]!;
  const key = issue.path.join('.');
  throw new ImportError('config_invalid', `option ${key}: ${issue.message}`, { field: key });
};

export const rejectLimit = (threshold: RejectThreshold, read: number): number =>
  'count' in threshold ? threshold.count : Math.floor((threshold.percent / 100) * read);
