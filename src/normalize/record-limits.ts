import { LIMITS } from '../core/schemas/limits.js';

/**
 * docs/design.md "Request size": what one record may carry into a request, whatever its row holds. A row
 * with 20,000 e-mails must not become a 20,000-entry list on the service, nor 20,000 searches.
 */
export const RECORD_LIMITS = {
  /** E-mails kept per record, in source order; the rest are dropped with `too_many_values`. */
  emails: 50,
  /** Phone numbers kept per record, likewise. */
  phones: 50,
  /** E-mails of a record that resolution searches the target for (its first ones). */
  searchedEmails: 5,
  /**
   * Entries in any one list of a contact (custom fields, groups, tags...): the service refuses a
   * write with more, so `run` and `validate` alike reject such a record before anything is sent.
   */
  listEntries: LIMITS.maxListEntries,
} as const;
