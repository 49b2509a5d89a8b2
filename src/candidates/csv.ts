/** candidates.csv: one row per pair, best first; formula-safe like every CSV we write. */
import { writePiecesAtomic } from '../report/atomic-file.js';
import { csvRecord } from '../report/csv-record.js';
import type { CandidatePair, PersonFields, PlacedPerson } from './types.js';

export const CANDIDATE_COLUMNS = [
  'band',
  'score',
  'a_file',
  'a_row',
  'b_file',
  'b_row',
  'b_contact_id',
  'a_name',
  'b_name',
  'a_email',
  'b_email',
  'reasons',
  'cluster',
  'decision',
] as const;

/** The name candidates.csv shows for a person: first and last name as written, or the full name. */
export const nameOf = (p: PersonFields): string =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || (p.fullName ?? '');

/** What candidates.csv shows of the person at an index (candidates/people.ts keeps only that). */
export interface ShownPeople {
  fileAt(i: number): string;
  rowAt(i: number): number;
  nameAt(i: number): string;
  emailAt(i: number): string;
}

export const candidateRows = (pairs: readonly CandidatePair[], people: ShownPeople): string[][] =>
  pairs.map((pair) => [
    pair.band,
    pair.score.toFixed(3),
    people.fileAt(pair.a),
    String(people.rowAt(pair.a)),
    people.fileAt(pair.b),
    String(people.rowAt(pair.b)),
    '',
    people.nameAt(pair.a),
    people.nameAt(pair.b),
    people.emailAt(pair.a),
    people.emailAt(pair.b),
    pair.reasons.join('; '),
    pair.cluster === undefined ? '' : String(pair.cluster),
    '',
  ]);

/** A record and a target contact: B is the contact (`b_contact_id`), its e-mail unknown to a name search. */
export const targetRow = (
  a: PlacedPerson,
  contact: {
    contactId: string;
    contactName: string;
    score: number;
    band: string;
    reasons: readonly string[];
  },
): string[] => [
  contact.band,
  contact.score.toFixed(3),
  a.file,
  String(a.row),
  '',
  '',
  contact.contactId,
  nameOf(a.person),
  contact.contactName,
  a.person.emails?.[0] ?? '',
  '',
  contact.reasons.join('; '),
  '',
  '',
];

/** Rows stringified and written at a time: the file is never held whole (pairs may be many). */
const BATCH = 2_000;

/**
 * candidates.csv through a temporary file (report/atomic-file.ts): the header, then `count` rows
 * made by `rows(start, end)` in candidates.csv's column order, best first.
 */
const writeInBatches = (
  path: string,
  count: number,
  rows: (start: number, end: number) => string[][],
): void => {
  function* pieces(): Generator<string> {
    yield csvRecord(CANDIDATE_COLUMNS);
    for (let start = 0; start < count; start += BATCH) {
      const batch = rows(start, Math.min(count, start + BATCH));
      let text = '';
      for (const cells of batch) text += csvRecord(cells);
      yield text;
    }
  }
  writePiecesAtomic(path, pieces());
};

/** candidates.csv: rows in candidates.csv's column order, best first (by score). */
export const writeCandidateRows = (path: string, rows: readonly string[][]): void =>
  writeInBatches(path, rows.length, (start, end) => rows.slice(start, end));

/** candidates.csv of the pairs found among the records, best first. */
export const writeCandidatesFile = (
  path: string,
  pairs: readonly CandidatePair[],
  people: ShownPeople,
): void => writeInBatches(path, pairs.length, (start, end) => candidateRows(pairs.slice(start, end), people));
