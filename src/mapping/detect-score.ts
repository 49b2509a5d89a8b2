import { columnTest, relaxedName, signatureColumns } from './signature.js';
import type { PipelineFile } from './schema.js';

/**
 * Which built-in fits a header: each pipeline is scored on the header it sees (its own preamble
 * and delimiter applied). A header column counts 1 when only that pipeline names it, 1/k when k
 * pipelines do, so the columns every export shares (First Name, Company) decide nothing alone.
 */

export interface HeaderView {
  name: string;
  spec: PipelineFile;
  /** The header this pipeline's dialect reads from the input ([] when it cannot read one). */
  header: readonly string[];
}

export interface Candidate {
  name: string;
  score: number;
  /** Header columns the pipeline names, as written in the input. */
  matched: string[];
}

export type Verdict =
  | { kind: 'chosen'; best: Candidate; ranking: Candidate[]; covers?: boolean }
  | { kind: 'none' | 'tie'; close: Candidate[]; ranking: Candidate[] };

/** Below this many columns (or this weighted score) no guess is made. */
const MIN_MATCHED = 2;
const MIN_SCORE = 1.5;
/** A runner-up this close to the best makes the guess ambiguous. */
const TIE_RATIO = 0.75;

const matchedColumns = (view: HeaderView): string[] => {
  const tests = signatureColumns(view.spec).map(columnTest);
  return view.header.filter((cell) => {
    const name = relaxedName(cell);
    return name !== '' && tests.some((test) => test(name));
  });
};

export const rankCandidates = (views: readonly HeaderView[]): Candidate[] => {
  const matches = views.map((view) => ({ name: view.name, matched: matchedColumns(view) }));
  const sharedBy = new Map<string, number>();
  for (const { matched } of matches)
    for (const cell of new Set(matched.map(relaxedName))) sharedBy.set(cell, (sharedBy.get(cell) ?? 0) + 1);
  return matches
    .map(({ name, matched }) => ({
      name,
      matched,
      score: matched.reduce((sum, cell) => sum + 1 / (sharedBy.get(relaxedName(cell)) ?? 1), 0),
    }))
    .sort((a, b) => b.score - a.score || b.matched.length - a.matched.length || a.name.localeCompare(b.name));
};

/**
 * Whether a candidate names every column of the header it sees (blank names aside): a plain
 * `Name;Email;Phone` list holds only columns several built-ins share, so its score stays low,
 * yet one built-in reads all of it.
 */
const coversHeader = (candidate: Candidate, views: readonly HeaderView[]): boolean => {
  const header = views.find((view) => view.name === candidate.name)?.header ?? [];
  const names = new Set(header.map(relaxedName).filter((name) => name !== ''));
  return names.size > 0 && new Set(candidate.matched.map(relaxedName)).size === names.size;
};

/**
 * The best candidate when it fits well enough (MIN_MATCHED columns, and MIN_SCORE or every
 * column of the header) and clearly better than the runner-up.
 */
export const judge = (views: readonly HeaderView[]): Verdict => {
  const ranking = rankCandidates(views);
  const [best, second] = ranking;
  const fitting = ranking.filter((c) => c.matched.length > 0);
  if (!best || best.matched.length < MIN_MATCHED)
    return { kind: 'none', close: fitting.slice(0, 3), ranking };
  const covers = coversHeader(best, views);
  if (best.score < MIN_SCORE && !covers) return { kind: 'none', close: fitting.slice(0, 3), ranking };
  if (second && second.score >= best.score * TIE_RATIO)
    return { kind: 'tie', close: ranking.filter((c) => c.score >= best.score * TIE_RATIO), ranking };
  return { kind: 'chosen', best, ranking, covers };
};

/** `First Name, Last Name, E-mail 1 - Value and 9 more` */
export const listColumns = (columns: readonly string[], shown = 6): string => {
  const head = columns.slice(0, shown).join(', ');
  return columns.length > shown ? `${head} and ${columns.length - shown} more` : head;
};

export const describeCandidate = (c: Candidate): string =>
  `${c.name} (${c.matched.length} column${c.matched.length === 1 ? '' : 's'}: ${listColumns(c.matched) || 'none'})`;
