/**
 * The people of a run, collected as their records are staged (first of each identity only: a
 * duplicate is merged already), then matched: the run's candidates and candidates.csv.
 *
 * Of each person only what the matcher compares is kept (staged-people.ts), with where the record
 * came from and the name and first e-mail candidates.csv shows: a run of a few hundred thousand
 * records holds each person once, laid out as the matcher reads it when matching starts.
 */
import { matchPeople, type CandidateOptions, type CandidateRun } from './index.js';
import { shippedNicknames, type Nicknames } from './nicknames.js';
import type { FlatPeople } from './flat-people.js';
import { IntList } from './int-list.js';
import { PrepareCache } from './prepare.js';
import { DEFAULT_BANDS } from './scoring.js';
import { StagedPeople } from './staged-people.js';
import type { TextList } from './text-list.js';
import { targetScorer, type TargetMatch, type TargetScorer } from './target-match.js';
import {
  candidateRows,
  nameOf,
  targetRow,
  writeCandidateRows,
  writeCandidatesFile,
  type ShownPeople,
} from './csv.js';
import type { CandidateCounts, CandidatePair, PersonFields } from './types.js';

export interface RunCandidates {
  counts: Omit<CandidateCounts, 'compared'>;
  path: string;
  /** The best pairs as candidates.csv writes them (CANDIDATE_COLUMNS), for report.html. */
  shown: string[][];
  /** Every pair, best first (indexes into the run's people): what a merge is planned from. */
  pairs: CandidatePair[];
  /** Compares a record with target contacts under the model learned from the records. */
  scorer: TargetScorer;
}

/** Where one person's record came from and was staged. */
export interface PersonPlace {
  file: string;
  row: number;
  /** Where the run staged the record (package/staging.ts), for a merge to name it by. */
  seq?: number | undefined;
}

/** Pairs report.html shows; candidates.csv has them all. */
const SHOWN = 100;

/** Distinct names shown kept for sharing at most. */
const SHOWN_NAMES_KEPT = 20_000;

/**
 * People from which the matcher's lists are worth collecting as soon as it is done: for fewer, a
 * full collection costs more than the little it frees.
 */
const COLLECT_FROM_PEOPLE = 10_000;

export class CandidatePeople implements ShownPeople {
  private readonly nicknames: Nicknames;
  /**
   * Let go once matched, with the caches of its values (keyed by the values as read, which hold on
   * to what they were read from): the rest of a run keeps only where each person came from and
   * the pairs.
   */
  private staged: StagedPeople | undefined;
  private count = 0;
  /** Input files, each once; a person names its file by number. */
  private readonly files: string[] = [];
  private readonly fileNumbers = new Map<string, number>();
  private readonly fileOf = new IntList();
  private readonly rows = new IntList();
  /** -1: not staged. */
  private readonly seqs = new IntList();
  private readonly names: string[] = [];
  /** The name shown, by first name then last name as written: people who share one share its string. */
  private readonly shownNames = new Map<string, Map<string, string>>();
  private shownNamesSize = 0;
  /**
   * The e-mails staged, and where each person's start, once matched: the first e-mail of each
   * person as written is nearly always its first staged, and read there; a string kept per person
   * would be one sliced from the row read, keeping the whole row alive.
   */
  private stagedEmails: { texts: TextList; start: Int32Array } | undefined;
  /** The first e-mail as written of the few people whose first staged e-mail is not that. */
  private readonly emailsAside = new Map<number, string>();

  constructor(private readonly options: CandidateOptions = {}) {
    this.nicknames = options.nicknames ?? shippedNicknames();
    this.staged = new StagedPeople(new PrepareCache(this.nicknames));
  }

  get size(): number {
    return this.count;
  }

  add(file: string, row: number, person: PersonFields, seq?: number): void {
    if (!this.staged) throw new Error('a person was added to the candidates after they were matched');
    let number = this.fileNumbers.get(file);
    if (number === undefined) {
      number = this.files.push(file) - 1;
      this.fileNumbers.set(file, number);
    }
    this.fileOf.push(number);
    this.rows.push(row);
    this.seqs.push(seq ?? -1);
    this.names.push(this.shownName(person));
    if (!this.staged.add(person)) this.emailsAside.set(this.count, person.emails?.[0] ?? '');
    this.count++;
  }

  /**
   * nameOf(person), made once per first and last name. The table is bounded: where names rarely
   * repeat it would cost more than the strings it shares.
   */
  private shownName(person: PersonFields): string {
    const first = person.firstName || '';
    const last = person.lastName || '';
    if (first === '' && last === '') return person.fullName ?? '';
    let byLast = this.shownNames.get(first);
    if (!byLast) this.shownNames.set(first, (byLast = new Map()));
    let name = byLast.get(last);
    if (name === undefined) {
      name = nameOf(person);
      if (this.shownNamesSize >= SHOWN_NAMES_KEPT) {
        this.shownNames.clear();
        this.shownNamesSize = 0;
      } else {
        byLast.set(last, name);
        this.shownNamesSize++;
      }
    }
    return name;
  }

  /**
   * The match, in a call of its own: what it worked with is referred to by nothing once it
   * returns, not even a temporary of the caller's frame, so the collector called then frees it.
   */
  private matched(): CandidateRun {
    return matchPeople(this.stagedPeople(), { ...this.options, nicknames: this.nicknames });
  }

  /**
   * The staged people as the matcher reads them; the staging and its caches are let go here, in
   * a call of its own, so that the match does not keep them.
   */
  private stagedPeople(): FlatPeople {
    const staged = this.staged;
    if (!staged) throw new Error('the candidates were matched twice');
    this.staged = undefined;
    const people = staged.finish();
    this.stagedEmails = { texts: people.emailTexts, start: people.emailStart };
    return people;
  }

  fileAt(i: number): string {
    return this.files[this.fileOf.data[i]!]!;
  }

  rowAt(i: number): number {
    return this.rows.data[i]!;
  }

  nameAt(i: number): string {
    return this.names[i]!;
  }

  emailAt(i: number): string {
    const aside = this.emailsAside.get(i);
    if (aside !== undefined) return aside;
    if (this.staged) return this.staged.firstEmail(i);
    const { texts, start } = this.stagedEmails!;
    return start[i]! < start[i + 1]! ? texts.at(start[i]!) : '';
  }

  /** Where each person's record came from, in order: what a merge is planned and applied by. */
  places(): PersonPlace[] {
    return Array.from({ length: this.count }, (_, i) => {
      const seq = this.seqs.data[i]!;
      return { file: this.fileAt(i), row: this.rowAt(i), seq: seq < 0 ? undefined : seq };
    });
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
      ...candidateRows(found.pairs, this).map((cells, i) => ({ score: found.pairs[i]!.score, cells })),
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

  /**
   * Matches the people and writes candidates.csv at `path`; once, as the people's lists are let
   * go then (the largest thing a run holds, which the report written after need not carry).
   * `collectGarbage`, the host's collector, is called once they are, when they were many: the
   * people and the match's working lists are then garbage that a heap grown to hold them would
   * otherwise keep while candidates.csv and the report are written.
   */
  match(path: string, collectGarbage?: () => void): RunCandidates {
    const { options } = this;
    const { pairs, counts, model, frequencies } = this.matched();
    if (this.count >= COLLECT_FROM_PEOPLE) collectGarbage?.();
    writeCandidatesFile(path, pairs, this);
    const { likely, possible, clusters, blocksSkipped } = counts;
    return {
      counts: { likely, possible, clusters, blocksSkipped },
      path,
      shown: candidateRows(pairs.slice(0, SHOWN), this),
      pairs,
      scorer: targetScorer({ model, frequencies }, this.nicknames, options.bands ?? DEFAULT_BANDS),
    };
  }
}
