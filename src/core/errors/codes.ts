/**
 * The one registry of codes. Three families share it so a code means one thing everywhere:
 * - run-level problems that stop a run (thrown as ImportError, exit 2);
 * - record-level issues (written to issues.csv; never thrown);
 * - the local service's error payload codes (`data.code` in the error envelope).
 * Add a code here before using it; `code` strings are a public contract (reports, scripts).
 */
export const RUN_CODES = {
  usage: 'The command line is not valid.',
  pipeline_not_found: 'No built-in pipeline or pipeline file by that name.',
  pipeline_invalid: 'The pipeline file is not valid.',
  pipeline_undetected: 'No pipeline was named and no built-in fits the input header clearly.',
  input_not_found: 'An input file does not exist.',
  input_unreadable: 'An input file cannot be read as the declared format.',
  input_format_unknown: 'The input format cannot be told from the file name.',
  input_format_unsupported:
    'The input is a kind of file this tool does not read as given (an old Excel workbook, a workbook named as text).',
  sheet_not_found: 'The workbook has no sheet by the name given.',
  config_invalid: 'An option or environment value is not valid.',
  api_key_missing: 'No API key was given for the target.',
  auth_failed: 'The target refused the API key.',
  target_unreachable: 'The target cannot be reached.',
  request_timeout: 'A request got no complete answer within the time allowed.',
  response_too_large: 'The target answered with a body larger than the client reads (64 MB unless set).',
  retries_exhausted: 'A request kept failing after every retry.',
  service_error: 'The service answered in a way the run cannot continue from.',
  target_inconsistent:
    'The target answered ids that cannot be right (one id for different contacts, or a created contact that is not the one sent).',
  state_error: 'The state directory (ledger) cannot be used.',
  state_locked: 'Another run holds the state directory.',
  output_error: 'The report files cannot be written.',
  output_replaces_input: 'A file the run would write is one of its inputs.',
  run_not_found: 'No run by that id or folder is in the ledger of the state directory.',
  undo_refused: 'The run cannot be undone (a dry run, an undo, or another target).',
  interrupted: 'The run was interrupted.',
  aborted: 'The run was aborted.',
  input_changed:
    'An input file changed while it was read (cut short, added to or replaced): the run stopped rather than load part of one version.',
  target_busy:
    'The target asked to wait (Retry-After, or its announced rate) longer than the run waits (--max-wait).',
  io_error:
    'A file or folder could not be read or written (full disk, file-size limit, read-only file system, permission, path too long).',
  internal_error: 'An unexpected error inside contact-import (a bug): exit 70.',
  pipeline_mismatch:
    'The pipeline named would leave a name or e-mail column of an input unused; another built-in reads it.',
  phone_region:
    'A phone column holds numbers without a country that fail under the region but pass under another.',
  merge_candidates_invalid:
    'The file given to --merge-candidates is not a reviewed candidates.csv of this run (header, decision, or a pair this run did not find).',
  sync_guard:
    'A sync run would archive more contacts than --max-archive allows, or its input was not read whole; nothing was sent.',
} as const;

export const ISSUE_CODES = {
  // read
  row_ragged: 'The row has a different number of fields than the header.',
  row_unparseable: 'The row or line cannot be parsed.',
  invalid_encoding: 'The row holds bytes that are not valid in the declared encoding.',
  duplicate_header: 'The header names a column more than once.',
  empty_header: 'A header cell is empty.',
  // map
  unknown_column: 'A column the pipeline maps is not in the header.',
  // normalize and validate
  no_identity: 'The record has no e-mail, phone, or name to identify it.',
  invalid_email: 'An e-mail address is not valid and was dropped.',
  invalid_phone: 'A phone number is not valid and was dropped.',
  invalid_date: 'A date cannot be read and was dropped.',
  invalid_website: 'A website is not a valid URL and was dropped.',
  invalid_value: 'A value fails the service write schema and was dropped.',
  value_too_long: 'A value is longer than the service allows and was dropped.',
  invalid_handle: 'A social handle is not valid and was dropped.',
  invalid_reminder: 'A reminder cannot be built from the record and was dropped.',
  too_many_values:
    'The record holds more e-mails or phone numbers than one contact keeps; the rest were dropped.',
  record_too_large: 'The record is larger than any request to the target may be; it was not loaded.',
  too_many_entries:
    'A list of the record (custom fields, groups, tags...) holds more entries than one contact keeps; it was not loaded.',
  // dedupe
  duplicate: 'The record has the same identity as an earlier one and was merged into it.',
  // load
  service_rejected: 'The service refused the record.',
  load_failed:
    'The request carrying the record failed for good (out of retries); the same command sends it again.',
  // undo
  undo_conflict: 'The field changed on the service since the run wrote it; the undo kept the current value.',
  undo_not_undone:
    'Something the run added that the API cannot take back one by one (a list entry, a group, a custom field, a field no answer shows).',
  undo_failed: 'The request that undoes the contact failed for good; the same command tries again.',
  // read, added later
  mixed_encoding:
    'The row is not valid in the encoding of the rest of its file; it was read in the one it is valid in (UTF-8 or Windows-1252).',
  lone_surrogate: 'A value holds half of a UTF-16 surrogate pair; it was replaced by U+FFFD.',
} as const;

export const SERVICE_CODES = {
  invalid_body: 'The request body is not valid.',
  invalid_json: 'The request body is not valid JSON.',
  invalid_query: 'The query string is not valid.',
  invalid_path: 'A path parameter is not valid.',
  unauthorized: 'A valid API key is required.',
  not_found: 'Not found.',
  payload_too_large: 'The request body or bulk array is too large.',
  unsupported_media_type: 'The request body must be JSON.',
  rate_limited: 'Too many requests.',
  injected_fault: 'A fault injected by the local service.',
  idempotency_conflict: 'The idempotency key was used with a different request.',
  internal: 'The service failed unexpectedly.',
  bad_request: 'The HTTP request itself cannot be read (malformed, or headers too large).',
  body_timeout: 'The request body did not arrive completely within the time allowed.',
} as const;

export type RunCode = keyof typeof RUN_CODES;
export type IssueCode = keyof typeof ISSUE_CODES;
export type ServiceCode = keyof typeof SERVICE_CODES;
