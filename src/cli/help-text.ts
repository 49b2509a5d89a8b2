/**
 * The closing sections of each command's `--help`: examples, exit codes, environment, outputs.
 *
 * Every example is a command line that runs as written from a checkout (`contact-import` being
 * `node dist/cli/main.js`) and says the exit code it ends with; test/e2e/help-examples.test.ts runs
 * each of them. An example against a placeholder service (`https://crs.example.com`) cannot run
 * there and is skipped by that test; `serve` examples run until stopped.
 */

export interface Example {
  /** The command line, starting with `contact-import`. */
  command: string;
  /** What it does and how it ends, with its exit code (`exit 0`), or `runs until Ctrl-C`. */
  result: string;
}

const examplesSection = (examples: readonly Example[]): string =>
  ['Examples:', ...examples.flatMap((e) => [`  ${e.command}`, `      ${e.result}`])].join('\n');

const EXIT_CODES = `Exit codes:
  0    every record loaded, unchanged or (dry run) valid; rejects within --max-rejects (default 0)
  1    finished, but more records were rejected or failed than --max-rejects allows
  2    could not start or was stopped (usage, pipeline, input, target, key, a file that cannot be
       written: full disk, read-only, permission, path too long): one line on stderr
  70   an unexpected internal error (a bug): one line on stderr, the stack at --log-level debug
  130  interrupted by Ctrl-C (143: SIGTERM or SIGHUP); run the same command to continue`;

const RUN_ENVIRONMENT = `Environment:
  CONTACT_IMPORT_TARGET   the service's URL when --target is not given (else the local service)
  CONTACT_IMPORT_API_KEY  the service's API key (or --api-key-file FILE; never a flag value)`;

const VALIDATE_ENVIRONMENT = `Environment:
  CONTACT_IMPORT_TARGET and CONTACT_IMPORT_API_KEY are not read: validate sends nothing.
  To see what a load would change on a service: contact-import run --dry-run --target URL ...`;

const RUN_OUTPUTS = `Outputs:
  runs/<run-id>/ (or --out DIR): report.json, report.html, issues.csv (one row per problem),
  rejected.<ext> (the rejected records with their header, import_row and import_error), and
  changes.csv when a service was searched. The summary goes to stdout (--json: report.json plus
  exitReason and files), progress and errors to stderr. The ledger is in --state
  (default .contact-import/), and so is the local service's database when no target is given.
  When nothing was read (a bad option, a missing input, a target that cannot be reached), nothing
  is written.`;

const VALIDATE_OUTPUTS = `Outputs:
  runs/<run-id>/ (or --out DIR): report.json, report.html, issues.csv and rejected.<ext>, as run
  writes them, in "would" terms; nothing is sent and the ledger is not changed. The summary goes
  to stdout (--json: report.json plus exitReason and files), progress and errors to stderr.`;

export const RUN_EXAMPLES: readonly Example[] = [
  {
    command: 'contact-import run samples/generic.csv --max-rejects 25%',
    result:
      'loads the sample into the local service (.contact-import/); its two bad rows are within 25%: exit 0',
  },
  {
    command: 'contact-import run mail-client-csv samples/mail-client.csv --dry-run --max-rejects 25%',
    result: 'reads and checks everything, says what would be created, sends nothing: exit 0',
  },
  {
    command: 'contact-import run generic samples/generic.csv',
    result: 'the same load with no reject allowed (--max-rejects 0): exit 1, naming rejected.csv',
  },
  {
    command: 'contact-import run mail-client-csv export.csv --target https://crs.example.com',
    result: 'loads into a real service, the key from CONTACT_IMPORT_API_KEY: exit 0 when all loads',
  },
];

export const VALIDATE_EXAMPLES: readonly Example[] = [
  {
    command: 'contact-import validate address-book-csv samples/address-book.csv --max-rejects 1',
    result: 'checks an export (in CI too); the sample holds one record with no identity: exit 0',
  },
  {
    command: 'contact-import validate samples/address-book.csv',
    result: 'the pipeline detected from the header, no reject allowed: exit 1, naming rejected.csv',
  },
  {
    command: 'contact-import validate samples/mail-client.csv --max-rejects 25% --json',
    result: 'report.json on stdout for a script, exitReason and files included: exit 0',
  },
];

export const SERVE_EXAMPLES: readonly Example[] = [
  {
    command: 'contact-import serve --port 8787',
    result:
      'the local service on 127.0.0.1:8787, its database in memory, a key printed once: runs until Ctrl-C',
  },
  {
    command: 'contact-import serve --port 0 --db rehearsal.sqlite --fail-rate 0.05 --latency 20 --seed 1',
    result:
      'a rehearsal target on a free port: 5% of requests answer 503, each 20 ms late: runs until Ctrl-C',
  },
];

export const PIPELINES_EXAMPLES: readonly Example[] = [
  { command: 'contact-import pipelines', result: 'the built-ins and the exports each reads: exit 0' },
  { command: 'contact-import pipelines --json', result: 'the same as a JSON array: exit 0' },
];

export const INIT_EXAMPLES: readonly Example[] = [
  {
    command: 'contact-import init samples/mail-client.csv',
    result: 'prints a drafted pipeline YAML for the export: exit 0',
  },
  {
    command: 'contact-import init samples/mail-client.csv --out my-pipeline.yaml',
    result: 'writes it to edit (never over an existing file without --force): exit 0',
  },
  {
    command: 'contact-import validate my-pipeline.yaml samples/mail-client.csv --max-rejects 25%',
    result: 'checks the export with the drafted pipeline: exit 0',
  },
];

export const runEpilogue = (): string =>
  [examplesSection(RUN_EXAMPLES), EXIT_CODES, RUN_ENVIRONMENT, RUN_OUTPUTS].join('\n\n');

export const validateEpilogue = (): string =>
  [examplesSection(VALIDATE_EXAMPLES), EXIT_CODES, VALIDATE_ENVIRONMENT, VALIDATE_OUTPUTS].join('\n\n');

export const serveEpilogue = (): string =>
  [
    examplesSection(SERVE_EXAMPLES),
    `Exit codes:
  0    stopped by Ctrl-C, SIGTERM or SIGHUP
  2    could not start (a port in use, a --db that is not the service's): one line on stderr`,
    `Environment:
  CONTACT_IMPORT_SERVE_KEYS  comma-separated API keys when no --api-key is given (else one is
                             generated and printed once)
  CONTACT_IMPORT_TARGET and CONTACT_IMPORT_API_KEY are not read by serve.`,
    `Outputs:
  The address and key on stdout; the data in --db (default :memory:, gone when it stops).`,
  ].join('\n\n');

export const pipelinesEpilogue = (): string =>
  [
    examplesSection(PIPELINES_EXAMPLES),
    'Exit codes:\n  0    listed\n  2    a built-in pipeline file cannot be read: one line on stderr',
    'Environment:\n  none read (CONTACT_IMPORT_TARGET and CONTACT_IMPORT_API_KEY are for run).',
    'Outputs:\n  stdout only.',
  ].join('\n\n');

export const initEpilogue = (): string =>
  [
    examplesSection(INIT_EXAMPLES),
    `Exit codes:
  0    the draft was written
  2    the input cannot be read, or --out exists and --force was not given: one line on stderr`,
    'Environment:\n  none read (CONTACT_IMPORT_TARGET and CONTACT_IMPORT_API_KEY are for run).',
    'Outputs:\n  the YAML on stdout, or in --out FILE; a note on what to check on stderr.',
  ].join('\n\n');

export const UNDO_EXAMPLES: readonly Example[] = [
  {
    command: 'contact-import run samples/generic.csv --out runs/first --max-rejects 25%',
    result: 'a run to take back, its report in runs/first: exit 0',
  },
  {
    command: 'contact-import undo runs/first --dry-run',
    result: 'says what the undo would archive, restore and leave, changes nothing: exit 0',
  },
  {
    command: 'contact-import undo runs/first',
    result: 'archives the contacts the run created, restores the fields it changed: exit 0',
  },
  {
    command: 'contact-import undo runs/first',
    result: 'again: everything is settled, no request is sent: exit 0',
  },
];

export const undoEpilogue = (): string =>
  [
    examplesSection(UNDO_EXAMPLES),
    `Exit codes:
  0    everything the run did that can be taken back was (what cannot is listed as not undone)
  1    a field changed on the service since the run was kept (a conflict), or a request failed
  2    could not start (no such run, target, key) or a file could not be written: one line on stderr
  70   an unexpected internal error (a bug): one line on stderr, the stack at --log-level debug
  130  interrupted by Ctrl-C (143: SIGTERM or SIGHUP); run the same command to continue`,
    `Environment:
  CONTACT_IMPORT_TARGET   the service's URL when --target is not given (else the run's local service)
  CONTACT_IMPORT_API_KEY  the service's API key (or --api-key-file FILE; never a flag value)`,
    `Outputs:
  runs/<undo-id>/ (or --out DIR): report.json ("kind": "undo"), report.html, issues.csv (conflicts
  and what was not undone) and changes.csv (each field put back). The summary goes to stdout
  (--json: report.json plus files). The ledger in --state records what was undone.`,
  ].join('\n\n');
