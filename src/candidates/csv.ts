/** candidates.csv: one row per pair, best first; formula-safe like every CSV we write. */
import { stringify } from 'csv-stringify/sync';
import { writeFileAtomic } from '../report/atomic-file.js';
import { escapeFormula } from '../report/spreadsheet-safety.js';
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

const nameOf = (p: PersonFields): string =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || (p.fullName ?? '');

export const candidateRows = (pairs: readonly CandidatePair[], people: readonly PlacedPerson[]): string[][] =>
  pairs.map((pair) => {
    const a = people[pair.a]!;
    const b = people[pair.b]!;
    return [
      pair.band,
      pair.score.toFixed(3),
      a.file,
      String(a.row),
      b.file,
      String(b.row),
      '',
      nameOf(a.person),
      nameOf(b.person),
      a.person.emails?.[0] ?? '',
      b.person.emails?.[0] ?? '',
      pair.reasons.join('; '),
      pair.cluster === undefined ? '' : String(pair.cluster),
      '',
    ];
  });

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

/** candidates.csv: rows in candidates.csv's column order, best first (by score). */
export const writeCandidateRows = (path: string, rows: readonly string[][]): void => {
  writeFileAtomic(
    path,
    stringify([[...CANDIDATE_COLUMNS], ...rows.map((cells) => cells.map(escapeFormula))]),
  );
};

export const writeCandidatesFile = (
  path: string,
  pairs: readonly CandidatePair[],
  people: readonly PlacedPerson[],
): void => writeCandidateRows(path, candidateRows(pairs, people));
