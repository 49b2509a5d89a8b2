/**
 * Duplicate candidates against the target, for one run: each record the run would create is
 * scored against the contacts its name search found (load/resolve.ts); the pairs go into
 * candidates.csv after the load, and `--merge-candidates` turns a chosen pair into an update of
 * that contact (outcome `merged`, a `merged_into` row in changes.csv).
 */
import { personOf } from '../candidates/person-of.js';
import type { MergeChoice } from '../candidates/merge-plan.js';
import type { TargetMatch, TargetScorer } from '../candidates/target-match.js';
import type { PersonFields } from '../candidates/types.js';
import { ImportError } from '../core/errors/index.js';
import type { ContactResponse } from '../core/schemas/index.js';
import type { ChangeRow } from '../load/types.js';
import type { NormalizedRecord } from '../normalize/record.js';
import type { TargetCandidates, TargetPairFound } from '../load/target-candidates.js';
import { MERGED_FIELD } from './candidate-merges.js';

/** A record and a target contact the matcher took for one person. */
export interface FoundTargetPair {
  file: string;
  row: number;
  person: PersonFields;
  match: TargetMatch;
}

const placeKey = (file: string, row: number): string => `${file}\u0000${row}`;

export class TargetPairs implements TargetCandidates {
  readonly found: FoundTargetPair[] = [];
  readonly changes: ChangeRow[] = [];
  /** A reviewed file's `merge` rows with a target contact: record place -> contact id and file row. */
  private readonly decided = new Map<string, { contactId: string; row: number }>();

  constructor(
    private readonly scorer: TargetScorer,
    private readonly choice: MergeChoice | undefined,
  ) {
    if (choice && 'decisions' in choice) {
      for (const d of choice.decisions) {
        if (d.decision === 'merge' && d.bContactId !== '')
          this.decided.set(placeKey(d.aFile, d.aRow), { contactId: d.bContactId, row: d.row });
      }
    }
  }

  consider(record: NormalizedRecord, contacts: readonly ContactResponse[]): TargetPairFound | undefined {
    const person = personOf(record.contact);
    const matches = this.scorer.matches(person, contacts);
    for (const match of matches) this.found.push({ file: record.file, row: record.row, person, match });
    const chosen = this.chosen(record, matches);
    if (!chosen) return undefined;
    this.changes.push({
      file: record.file,
      row: record.row,
      contactId: chosen.contactId,
      field: MERGED_FIELD,
      old: '',
      new: `contact ${chosen.contactId} (${chosen.contactName})`,
    });
    return { contactId: chosen.contactId, score: chosen.score };
  }

  private chosen(record: NormalizedRecord, matches: readonly TargetMatch[]): TargetMatch | undefined {
    const { choice } = this;
    if (!choice) return undefined;
    if ('band' in choice) return matches.find((m) => m.band === choice.band);
    const decided = this.decided.get(placeKey(record.file, record.row));
    if (!decided) return undefined;
    const match = matches.find((m) => m.contactId === decided.contactId);
    if (match) return match;
    // The reviewed pair is not one this run found: merging on it would join other people.
    throw new ImportError(
      'merge_candidates_invalid',
      `${choice.file}: row ${decided.row}: field b_contact_id: contact ${decided.contactId} is not a candidate this run found for ${record.file} row ${record.row}`,
      { file: choice.file, row: decided.row, field: 'b_contact_id' },
    );
  }
}
