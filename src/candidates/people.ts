/**
 * The people of a run, collected as their records are staged (first of each identity only: a
 * duplicate is merged already), then matched: the run's candidates and candidates.csv.
 */
import { findCandidates, type CandidateOptions } from './index.js';
import { writeCandidatesFile } from './csv.js';
import type { CandidateCounts, PersonFields } from './types.js';

export interface PlacedPerson {
  file: string;
  row: number;
  person: PersonFields;
}

export interface RunCandidates {
  counts: Omit<CandidateCounts, 'compared'>;
  path: string;
}

export class CandidatePeople {
  readonly people: PlacedPerson[] = [];

  add(file: string, row: number, person: PersonFields): void {
    this.people.push({ file, row, person });
  }

  /** Matches the people and writes candidates.csv at `path`. */
  match(path: string, options: CandidateOptions = {}): RunCandidates {
    const { pairs, counts } = findCandidates(
      this.people.map((p) => p.person),
      options,
    );
    writeCandidatesFile(path, pairs, this.people);
    const { compared: _compared, ...shown } = counts;
    return { counts: shown, path };
  }
}
