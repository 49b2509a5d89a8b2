/**
 * `--merge-candidates`: once reading has ended and the candidates are found, the records a person
 * (or the `likely` band) said are one person are merged into one staged record, under the merge
 * rules of identity duplicates, before the load takes anything. Each record merged away ends
 * `merged` in outcomes.csv and in `totals.merged`; changes.csv lists each merge.
 */
import { readDecisions } from '../candidates/decisions.js';
import { planMerges, type MergeChoice } from '../candidates/merge-plan.js';
import type { CandidatePeople, RunCandidates } from '../candidates/people.js';
import type { ExtractCounts } from '../extract/types.js';
import type { ChangeRow } from '../load/types.js';
import type { Staging } from '../package/staging.js';
import type { RunOutputs } from '../report/run-outputs.js';

/** changes.csv's `field` for a record merged into another's contact. */
export const MERGED_FIELD = 'merged_into';

/** The choice `--merge-candidates` names, its file read and checked (throws merge_candidates_invalid). */
export const mergeChoiceOf = (value: string | undefined): MergeChoice | undefined => {
  if (value === undefined) return undefined;
  if (value === 'likely') return { band: 'likely' };
  return { file: value, decisions: readDecisions(value) };
};

/** Merges the chosen pairs in the staging; the changes.csv rows that say so. */
export const applyCandidateMerges = (
  choice: MergeChoice,
  found: RunCandidates,
  people: CandidatePeople,
  sinks: { staging: Staging; outputs: RunOutputs; totals: ExtractCounts },
): ChangeRow[] => {
  const places = people.places();
  const merges = planMerges(choice, found.pairs, places);
  const seqOf = (i: number): number => {
    const seq = places[i]!.seq;
    if (seq === undefined) throw new Error('a candidate person without its staging sequence number');
    return seq;
  };
  const removed = sinks.staging.mergeApart(merges.map((m) => ({ into: seqOf(m.into), from: seqOf(m.from) })));
  const rows: ChangeRow[] = [];
  removed.forEach((place, k) => {
    const merge = merges[k]!;
    const into = places[merge.into]!;
    const where = `${into.file === place.file ? '' : `${into.file} `}row ${into.row}`;
    sinks.totals.merged += 1;
    sinks.outputs.outcomes.add({
      file: place.file,
      row: place.row,
      line: place.line,
      outcome: 'merged',
      identity: place.key,
      reason: `same person as ${where} (candidates.csv, score ${merge.score.toFixed(3)}); merged into its contact`,
    });
    rows.push({
      file: place.file,
      row: place.row,
      contactId: '',
      field: MERGED_FIELD,
      old: '',
      new: `${into.file} row ${into.row}`,
    });
  });
  return rows;
};
