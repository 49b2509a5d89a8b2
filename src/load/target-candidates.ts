/**
 * Duplicate candidates against the target, as the resolver sees them: a record it would create is
 * compared with the contacts one name search finds; a chosen pair (the `likely` band, or a pair a
 * person marked `merge`) makes the record an update of that contact instead of a create.
 */
import type { ContactResponse } from '../core/schemas/index.js';
import type { NormalizedRecord } from '../normalize/record.js';

export interface TargetPairFound {
  contactId: string;
  score: number;
}

export interface TargetCandidates {
  /**
   * The record's pairs with the contacts its name search found, noted for candidates.csv; the one
   * it merges into, if any.
   */
  consider(record: NormalizedRecord, contacts: readonly ContactResponse[]): TargetPairFound | undefined;
}

/** What one name search asks for: the last name (a substring search finds `Bob` and `Robert` alike). */
export const nameQueryOf = (record: NormalizedRecord): string | undefined => {
  const { last_name, full_name, first_name } = record.contact;
  const query = (last_name ?? full_name ?? first_name ?? '').trim();
  return query.length >= 2 ? query : undefined;
};

/** Contacts one name search reads: a common last name answers many, the first ones are compared. */
export const NAME_SEARCH_TAKE = 50;
