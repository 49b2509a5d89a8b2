/**
 * The people of a run, collected as their records are staged (first of each identity only: a
 * duplicate is merged already), then matched: the run's candidates and candidates.csv.
 */
import { findCandidates, type CandidateOptions } from './index.js';
import { candidateRows, writeCandidatesFile } from './csv.js';
import type { CandidateCounts, CandidatePair, PersonFields, PlacedPerson } from './types.js';

export interface RunCandidates {
  counts: Omit<CandidateCounts, 'compared'>;
  path: string;
  /** The best pairs as candidates.csv writes them (CANDIDATE_COLUMNS), for report.html. */
  shown: string[][];
  /** Every pair, best first (indexes into `CandidatePeople.people`): what a merge is planned from. */
  pairs: CandidatePair[];
}

/** Pairs report.html shows; candidates.csv has them all. */
const SHOWN = 100;

export class CandidatePeople {
  readonly people: PlacedPerson[] = [];

  add(file: string, row: number, person: PersonFields, seq?: number): void {
    this.people.push({ file, row, person, seq });
  }

  /** Matches the people and writes candidates.csv at `path`. */
  match(path: string, options: CandidateOptions = {}): RunCandidates {
    const { pairs, counts } = findCandidates(
      this.people.map((p) => p.person),
      options,
    );
    writeCandidatesFile(path, pairs, this.people);
    const { likely, possible, clusters, blocksSkipped } = counts;
    return {
      counts: { likely, possible, clusters, blocksSkipped },
      path,
      shown: candidateRows(pairs.slice(0, SHOWN), this.people),
      pairs,
    };
  }
}
