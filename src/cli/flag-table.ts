import type { Options } from 'yargs';
import { RUN_DEFAULTS as D, TIMEOUT_DEFAULTS as T } from '../run/defaults.js';
import { DEFAULT_PORT } from '../server/defaults.js';

/**
 * Every command's flags, as data: each command's builder hands its row to yargs (`.options`), and
 * the usage errors name the flags of a command from the same row (a flag typed to the wrong
 * command, a typo's nearest flag). A flag is added here, once.
 */

const LOG_LEVEL = {
  choices: ['silent', 'error', 'warn', 'info', 'debug', 'trace'] as const,
  default: 'warn' as const,
  describe: 'log level (logs go to stderr)',
};

/**
 * The flags `run` and `validate` share: what to read, how to check it, where the
 * report goes. No yargs defaults for settings: the library applies them (run/defaults.ts); the help
 * says them. Number flags are taken as text so a mistake is reported as typed (flag-values.ts).
 */
const READ_FLAGS = {
  pipeline: { type: 'string', describe: 'built-in pipeline name or YAML file (forces it; no detection)' },
  sheet: { type: 'string', describe: 'worksheet of the .xlsx inputs to read (default: the first)' },
  out: { type: 'string', describe: 'report folder (default runs/<run-id>)' },
  state: { type: 'string', describe: `ledger folder (default ${D.stateDir})` },
  'max-body-bytes': {
    type: 'string',
    describe: `largest request body, in bytes (default ${D.maxBodyBytes}: under the service's 5 MB)`,
  },
  match: { choices: ['email', 'none'] as const, describe: `match existing contacts (default ${D.match})` },
  region: { type: 'string', describe: 'default phone region (ISO 3166 alpha-2)' },
  candidates: {
    choices: ['on', 'off'] as const,
    describe: `look for the same person under another e-mail, candidates.csv (default ${D.candidates})`,
  },
  'merge-candidates': {
    type: 'string',
    describe:
      'merge the pairs a reviewed candidates.csv marks `merge`, or `likely`: the likely band (default: none)',
  },
  'max-rejects': {
    type: 'string',
    describe: `rejects allowed for exit 0: N or P% (default ${D.maxRejects})`,
  },
  strict: { type: 'boolean', describe: 'reject records instead of dropping invalid values' },
  json: { type: 'boolean', default: false, describe: 'print report.json instead of the summary' },
  'progress-interval': {
    type: 'string',
    describe:
      'seconds between progress lines when stderr is not a terminal, as in CI logs (default 10; 0: none)',
  },
  'log-level': LOG_LEVEL,
} as const satisfies Record<string, Options>;

/** The flags of `run` alone: where to send and how. `validate` sends nothing and takes none of them. */
const LOAD_FLAGS = {
  target: {
    type: 'string',
    describe: 'service origin URL (or CONTACT_IMPORT_TARGET); default: the local service',
  },
  'api-key-file': { type: 'string', describe: 'file holding the API key (else CONTACT_IMPORT_API_KEY)' },
  'chunk-size': { type: 'string', describe: `contacts per bulk request (default ${D.chunkSize})` },
  concurrency: { type: 'string', describe: `requests in flight (default ${D.concurrency})` },
  timeout: {
    type: 'string',
    describe: `seconds a request may take before it is retried (default ${T.request}, plus ${T.perMb} per MB sent); also the start probe (default ${T.probe})`,
  },
  'max-wait': {
    type: 'string',
    describe: `longest wait in seconds when the target asks for one (Retry-After, its rate limit); longer stops the run (default ${D.maxWait})`,
  },
  sync: {
    type: 'string',
    describe:
      'sync scope NAME: the inputs are the truth for the contacts runs with --sync NAME loaded (gone ones archived, removed e-mails/phones removed, emptied cells cleared)',
  },
  'max-archive': {
    type: 'string',
    describe:
      'with --sync: most contacts one run may archive, N or P% (default 10% of the scope, at least 5)',
  },
  'legacy-target': {
    type: 'string',
    describe: "origin of the older update endpoint E11 (default: the target's)",
  },
  'legacy-auth-header': {
    type: 'string',
    describe: 'header carrying the API key to E11 (default Authorization: Bearer)',
  },
  'dry-run': { type: 'boolean', default: false, describe: 'stop before loading' },
  reread: {
    type: 'boolean',
    describe: 'read every input even when it is byte-identical to the last run (no shortcut)',
  },
} as const satisfies Record<string, Options>;

const UNDO_FLAGS = {
  target: {
    type: 'string',
    describe: "service origin URL (or CONTACT_IMPORT_TARGET); default: the run's local service",
  },
  'api-key-file': { type: 'string', describe: 'file holding the API key (else CONTACT_IMPORT_API_KEY)' },
  state: { type: 'string', default: '.contact-import', describe: 'the ledger folder the run used' },
  out: { type: 'string', describe: 'report folder (default runs/<undo-id>)' },
  'dry-run': { type: 'boolean', default: false, describe: 'show what the undo would do; change nothing' },
  json: { type: 'boolean', default: false, describe: 'print report.json instead of the summary' },
  'log-level': LOG_LEVEL,
} as const satisfies Record<string, Options>;

const SERVE_FLAGS = {
  host: { type: 'string', default: '127.0.0.1', describe: 'Address to bind (loopback by default)' },
  port: { type: 'number', default: DEFAULT_PORT, describe: 'Port; 0 picks a free one' },
  db: { type: 'string', default: ':memory:', describe: 'SQLite file, or :memory:' },
  'api-key': {
    type: 'array',
    string: true,
    describe:
      'A user API key (repeatable, one user each); else CONTACT_IMPORT_SERVE_KEYS, else one is generated',
  },
  'max-bulk': { type: 'number', describe: 'Most elements in one bulk request (default 500)' },
  'rate-limit': {
    type: 'number',
    describe:
      'Requests per second per key, announced in RateLimit-Policy/RateLimit and X-RateLimit-* headers; 429 beyond',
  },
  'fail-rate': { type: 'number', describe: 'Fraction 0..1 of requests answered 503 before any work' },
  'reset-rate': {
    type: 'number',
    describe: 'Fraction 0..1 of requests applied, then the connection dropped',
  },
  'cut-rate': {
    type: 'number',
    describe: 'Fraction 0..1 of requests applied, then the answer cut off halfway',
  },
  'slow-rate': {
    type: 'number',
    describe: 'Fraction 0..1 of requests applied, then answered only after --slow-ms',
  },
  'slow-ms': { type: 'number', describe: 'How late a --slow-rate answer comes (default 2000)' },
  latency: { type: 'number', describe: 'Delay every answer by this many milliseconds' },
  seed: { type: 'number', describe: 'Seed for the fault decisions (repeatable runs)' },
  'body-timeout-ms': {
    type: 'number',
    describe: 'Most milliseconds a request body may take to arrive (default 30000); 408 beyond',
  },
  idempotency: {
    type: 'boolean',
    default: true,
    describe: 'Honour Idempotency-Key on creates; --no-idempotency ignores it (a target without it)',
  },
  'rate-limit-headers': {
    type: 'boolean',
    default: true,
    describe:
      'Announce --rate-limit in the answers; --no-rate-limit-headers does not (a target that only answers 429)',
  },
  'legacy-auth-header': {
    type: 'string',
    describe:
      'E11 (/api/rest/) takes the key bare in this header instead of Authorization: Bearer (as run --legacy-auth-header sends it)',
  },
} as const satisfies Record<string, Options>;

/** The flags of each command, by the command's first word. */
export const FLAG_TABLE = {
  run: { ...READ_FLAGS, ...LOAD_FLAGS },
  validate: READ_FLAGS,
  undo: UNDO_FLAGS,
  runs: {
    state: { type: 'string', describe: `ledger folder (default ${D.stateDir})` },
    json: {
      type: 'boolean',
      default: false,
      describe:
        'print a JSON array of {runId, startedAt, finishedAt, command, pipeline, sync, inputs, totals, status, exitCode, out}',
    },
  },
  serve: SERVE_FLAGS,
  pipelines: {
    json: {
      type: 'boolean',
      default: false,
      describe: 'Print a JSON array of {name, description, file, alsoReads}',
    },
  },
  init: {
    out: { type: 'string', describe: 'Write the draft to FILE instead of standard output' },
    force: { type: 'boolean', default: false, describe: 'Overwrite FILE when it exists' },
  },
} as const satisfies Record<string, Record<string, Options>>;

export type CommandName = keyof typeof FLAG_TABLE;

/** Every parser has these two besides a command's own. */
const BUILT_IN = ['help', 'version'] as const;

/** The long flags (without dashes) a command takes, or the top level's when `command` is none. */
export const longFlagsOf = (command: string | undefined): string[] => [
  ...(command !== undefined && command in FLAG_TABLE ? Object.keys(FLAG_TABLE[command as CommandName]) : []),
  ...BUILT_IN,
];
