/**
 * The people of a run, collected as their records are staged (first of each identity only: a
 * duplicate is merged already), then matched: the run's candidates and candidates.csv.
 */
import { findCandidates, type CandidateOptions } from './index.js';
import { shippedNicknames } from './nicknames.js';
import { DEFAULT_BANDS } from './scoring.js';
import { targetScorer, type TargetMatch, type TargetScorer } from './target-match.js';
import { candidateRows, targetRow, writeCandidateRows, writeCandidatesFile } from './csv.js';
import type { CandidateCounts, CandidatePair, PersonFields, PlacedPerson } from './types.js';

export interface RunCandidates {
  counts: Omit<CandidateCounts, 'compared'>;
  path: string;
  /** The best pairs as candidates.csv writes them (CANDIDATE_COLUMNS), for report.html. */
  shown: string[][];
  /** Every pair, best first (indexes into `CandidatePeople.people`): what a merge is planned from. */
  pairs: CandidatePair[];
  /** Compares a record with target contacts under the model learned from the records. */
  scorer: TargetScorer;
}

/** Pairs report.html shows; candidates.csv has them all. */
const SHOWN = 100;

export class CandidatePeople {
  readonly people: PlacedPerson[] = [];

  add(file: string, row: number, person: PersonFields, seq?: number): void {
    this.people.push({ file, row, person, seq });
  }

  /**
   * candidates.csv again with the pairs of records and target contacts the load found (each
   * record to create against the contacts of its name search), best first; the counts with them.
   */
  withTargetPairs(
    found: RunCandidates,
    targets: readonly { file: string; row: number; person: PersonFields; match: TargetMatch }[],
  ): RunCandidates {
    if (targets.length === 0) return found;
    const scored = [
      ...candidateRows(found.pairs, this.people).map((cells, i) => ({ score: found.pairs[i]!.score, cells })),
      ...targets.map((t) => ({ score: t.match.score, cells: targetRow(t, t.match) })),
    ].sort((x, y) => y.score - x.score);
    const rows = scored.map((s) => s.cells);
    writeCandidateRows(found.path, rows);
    const likely = targets.filter((t) => t.match.band === 'likely').length;
    return {
      ...found,
      counts: {
        ...found.counts,
        likely: found.counts.likely + likely,
        possible: found.counts.possible + targets.length - likely,
      },
      shown: rows.slice(0, SHOWN),
    };
  }

  /** Matches the people and writes candidates.csv at `path`. */
  match(path: string, options: CandidateOptions = {}): RunCandidates {
    const { pairs, counts, model, frequencies } = findCandidates(
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
      scorer: targetScorer(
        { model, frequencies },
        options.nicknames ?? shippedNicknames(),
        options.bands ?? DEFAULT_BANDS,
      ),
    };
  }
}
