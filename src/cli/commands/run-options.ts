import type { Argv } from 'yargs';
import { RUN_DEFAULTS as D, TIMEOUT_DEFAULTS as T } from '../../run/defaults.js';

/**
 * The flags `run` and `validate` share (DESIGN.md "Command line"): what to read, how to check it,
 * where the report goes. The flags about sending are `run`'s only (withLoadFlags).
 */
export const withRunFlags = <T>(yargs: Argv<T>) =>
  yargs
    .positional('inputs', {
      type: 'string',
      array: true,
      demandOption: true,
      // An array positional shows `[default: []]` beside `[required]` otherwise.
      default: undefined,
      describe:
        "[pipeline] then .csv .tsv .json .ndjson .jsonl .xlsx .vcf files, or - for stdin; without a pipeline it is detected from the first input's header",
    })
    .option('pipeline', {
      type: 'string',
      describe: 'built-in pipeline name or YAML file (forces it; no detection)',
    })
    .option('sheet', {
      type: 'string',
      describe: 'worksheet of the .xlsx inputs to read (default: the first)',
    })
    .option('out', { type: 'string', describe: 'report folder (default runs/<run-id>)' })
    // No yargs defaults for settings: the library applies them (run/defaults.ts); the help says them.
    .option('state', { type: 'string', describe: `ledger folder (default ${D.stateDir})` })
    // Number flags are taken as text so a mistake is reported as typed (flag-values.ts).
    .option('max-body-bytes', {
      type: 'string',
      describe: `largest request body, in bytes (default ${D.maxBodyBytes}: under the service's 5 MB)`,
    })
    .option('match', {
      choices: ['email', 'none'] as const,
      describe: `match existing contacts (default ${D.match})`,
    })
    .option('region', { type: 'string', describe: 'default phone region (ISO 3166 alpha-2)' })
    .option('candidates', {
      choices: ['on', 'off'] as const,
      describe: `look for the same person under another e-mail, candidates.csv (default ${D.candidates})`,
    })
    .option('merge-candidates', {
      type: 'string',
      describe:
        'merge the pairs a reviewed candidates.csv marks `merge`, or `likely`: the likely band (default: none)',
    })
    .option('max-rejects', {
      type: 'string',
      describe: `rejects allowed for exit 0: N or P% (default ${D.maxRejects})`,
    })
    .option('strict', { type: 'boolean', describe: 'reject records instead of dropping invalid values' })
    .option('json', { type: 'boolean', default: false, describe: 'print report.json instead of the summary' })
    .option('progress-interval', {
      type: 'string',
      describe:
        'seconds between progress lines when stderr is not a terminal, as in CI logs (default 10; 0: none)',
    })
    .option('log-level', {
      choices: ['silent', 'error', 'warn', 'info', 'debug', 'trace'] as const,
      default: 'warn' as const,
      describe: 'log level (logs go to stderr)',
    });

/** The flags of `run` alone: where to send and how. `validate` sends nothing and takes none of them. */
export const withLoadFlags = <T>(yargs: Argv<T>) =>
  yargs
    .option('target', {
      type: 'string',
      describe: 'service origin URL (or CONTACT_IMPORT_TARGET); default: the local service',
    })
    .option('api-key-file', {
      type: 'string',
      describe: 'file holding the API key (else CONTACT_IMPORT_API_KEY)',
    })
    .option('chunk-size', { type: 'string', describe: `contacts per bulk request (default ${D.chunkSize})` })
    .option('concurrency', { type: 'string', describe: `requests in flight (default ${D.concurrency})` })
    .option('timeout', {
      type: 'string',
      describe: `seconds a request may take before it is retried (default ${T.request}, plus ${T.perMb} per MB sent); also the start probe (default ${T.probe})`,
    })
    .option('max-wait', {
      type: 'string',
      describe: `longest wait in seconds when the target asks for one (Retry-After, its rate limit); longer stops the run (default ${D.maxWait})`,
    })
    .option('sync', {
      type: 'string',
      describe:
        'sync scope NAME: the inputs are the truth for the contacts runs with --sync NAME loaded (gone ones archived, removed e-mails/phones removed, emptied cells cleared)',
    })
    .option('max-archive', {
      type: 'string',
      describe:
        'with --sync: most contacts one run may archive, N or P% (default 10% of the scope, at least 5)',
    })
    .option('legacy-target', {
      type: 'string',
      describe: "origin of the older update endpoint E11 (default: the target's)",
    })
    .option('legacy-auth-header', {
      type: 'string',
      describe: 'header carrying the API key to E11 (default Authorization: Bearer)',
    });

export interface RunFlags {
  /** --pipeline; a pipeline given as the first positional arrives in `inputs`. */
  pipeline?: string;
  inputs: string[];
  sheet?: string;
  target?: string;
  apiKeyFile?: string;
  out?: string;
  state?: string;
  chunkSize?: string;
  concurrency?: string;
  timeout?: string;
  maxWait?: string;
  maxBodyBytes?: string;
  match?: 'email' | 'none';
  candidates?: 'on' | 'off';
  mergeCandidates?: string;
  region?: string;
  maxRejects?: string;
  strict?: boolean;
  /** `run` only: the sync scope, the archive guard, where E11 is and how it takes the key. */
  sync?: string;
  maxArchive?: string;
  legacyTarget?: string;
  legacyAuthHeader?: string;
  /** `run` only: take the full path even for inputs identical to the last run's. */
  reread?: boolean;
  json: boolean;
  /** `--progress-interval` as typed (progress.ts checks it). */
  progressInterval?: string;
  logLevel: string;
}
