/**
 * The shapes of the duplicate-candidates matcher: what it reads of a person, and the pairs it
 * finds. The matcher knows nothing of files or runs; `source` is whatever the caller needs to say
 * where a person came from.
 */

/** What the matcher compares of one person; every field may be absent. */
export interface PersonFields {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  /** Read only when first and last name are both absent (`Smith, Bob` or `Bob Smith`). */
  fullName?: string | null | undefined;
  emails?: readonly string[] | undefined;
  /** E.164 where the caller could make it so; compared as written otherwise. */
  phones?: readonly string[] | undefined;
  company?: string | null | undefined;
  jobTitle?: string | null | undefined;
  /** `YYYY-MM-DD`, or `--MM-DD` when the year is not known. */
  birthday?: string | null | undefined;
  /** Street number and name. */
  street?: string | null | undefined;
  postcode?: string | null | undefined;
  /** City, suburb or a free-text location. */
  city?: string | null | undefined;
}

/** A person and the record it was read from (`row` as in issues.csv). */
export interface PlacedPerson {
  file: string;
  row: number;
  person: PersonFields;
  /** Where the run staged the record (package/staging.ts), for a merge to name it by. */
  seq?: number | undefined;
}

export type Band = 'likely' | 'possible';

/** One pair of people the matcher takes for one: indexes into the list it was given, a < b. */
export interface CandidatePair {
  a: number;
  b: number;
  /** Match probability, 0 to 1. */
  score: number;
  band: Band;
  /** Per field, what the comparison found: `first_name: nickname bob~robert`. */
  reasons: string[];
  /** Records linked by `likely` pairs share a cluster number (1-based, by first member). */
  cluster?: number;
}

export interface CandidateCounts {
  likely: number;
  possible: number;
  /** Clusters of two or more people linked by `likely` pairs. */
  clusters: number;
  /** Blocks too large to compare whole, compared only between near neighbours. */
  blocksSkipped: number;
  /** Pairs the blocking keys proposed and the model scored. */
  compared: number;
}

export interface CandidateResult {
  pairs: CandidatePair[];
  counts: CandidateCounts;
}
