/**
 * Which records `--merge-candidates` merges: the pairs a reviewed candidates.csv marks `merge`, or
 * the `likely` band. Pairs that share a record chain into one group (a merged into b, b into c):
 * each group becomes one contact, the values of its later records merged into its first-seen one.
 */
import { ImportError } from '../core/errors/index.js';
import type { DecidedPair } from './decisions.js';
import type { CandidatePair } from './types.js';

/** Where a person's record came from: what a reviewed candidates.csv names it by. */
type Place = { file: string; row: number };

/** One record merged into another: indexes into the run's people. */
export interface CandidateMerge {
  /** The group's first-seen record: its contact takes the other's values. */
  into: number;
  from: number;
  /** The pair's score, or of the pair that brought `from` into the group. */
  score: number;
}

export type MergeChoice = { band: 'likely' } | { file: string; decisions: readonly DecidedPair[] };

const placeKey = (file: string, row: number): string => `${file}\u0000${row}`;

/**
 * The merges the choice asks for, in the order of the records merged (first-seen first). A decided
 * row that names no pair this run found stops the run (merge_candidates_invalid) before anything
 * is merged or sent: a file reviewed for other inputs must not merge the wrong people.
 */
export const planMerges = (
  choice: MergeChoice,
  pairs: readonly CandidatePair[],
  people: readonly Place[],
): CandidateMerge[] => {
  const chosen =
    'band' in choice ? pairs.filter((p) => p.band === choice.band) : decidedPairs(choice, pairs, people);
  return groupMerges(chosen, people.length);
};

const decidedPairs = (
  choice: { file: string; decisions: readonly DecidedPair[] },
  pairs: readonly CandidatePair[],
  people: readonly Place[],
): CandidatePair[] => {
  const index = new Map<string, number>();
  people.forEach((p, i) => index.set(placeKey(p.file, p.row), i));
  const found = new Map<string, CandidatePair>();
  for (const pair of pairs) found.set(`${pair.a}:${pair.b}`, pair);
  const chosen: CandidatePair[] = [];
  for (const d of choice.decisions) {
    const fail = (field: string, message: string) =>
      new ImportError(
        'merge_candidates_invalid',
        `${choice.file}: row ${d.row}: field ${field}: ${message}`,
        {
          file: choice.file,
          row: d.row,
          field,
        },
      );
    const a = index.get(placeKey(d.aFile, d.aRow));
    if (a === undefined)
      throw fail(
        'a_row',
        `${d.aFile} row ${d.aRow} is not a record this run read (or was merged as a duplicate)`,
      );
    // A pair with a target contact is checked when the record is resolved (run/target-pairs.ts).
    if (d.bContactId !== '') continue;
    const b = index.get(placeKey(d.bFile, d.bRow));
    if (b === undefined)
      throw fail(
        'b_row',
        `${d.bFile} row ${d.bRow} is not a record this run read (or was merged as a duplicate)`,
      );
    const pair = found.get(`${Math.min(a, b)}:${Math.max(a, b)}`);
    if (!pair) {
      throw fail(
        'b_row',
        `${d.aFile} row ${d.aRow} and ${d.bFile} row ${d.bRow} are not a pair this run found: expected a candidates.csv written for these inputs`,
      );
    }
    if (d.decision === 'merge') chosen.push(pair);
  }
  return chosen;
};

/** Union-find over the chosen pairs: each group merges into its first-seen record. */
const groupMerges = (chosen: readonly CandidatePair[], count: number): CandidateMerge[] => {
  const parent = new Map<number, number>();
  const rootOf = (i: number): number => {
    let root = i;
    while (parent.has(root)) root = parent.get(root)!;
    // Path compression: the next look-up of i is one step.
    if (root !== i) parent.set(i, root);
    return root;
  };
  const scoreOf = new Map<number, number>();
  for (const pair of chosen) {
    const a = rootOf(pair.a);
    const b = rootOf(pair.b);
    if (a === b) continue;
    const [first, later] = a < b ? [a, b] : [b, a];
    parent.set(later, first);
    scoreOf.set(pair.b, Math.max(scoreOf.get(pair.b) ?? 0, pair.score));
    scoreOf.set(pair.a, Math.max(scoreOf.get(pair.a) ?? 0, pair.score));
  }
  const merges: CandidateMerge[] = [];
  for (let i = 0; i < count; i++) {
    if (!parent.has(i)) continue;
    merges.push({ into: rootOf(i), from: i, score: scoreOf.get(i) ?? 0 });
  }
  return merges;
};
