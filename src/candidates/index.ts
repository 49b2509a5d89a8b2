/**
 * Duplicate candidates: pairs of people that are probably one person although no identity key
 * matched. prepare -> block -> compare -> train (u from random pairs, m by EM) -> score -> band
 * -> cluster. docs/candidates.md describes the model.
 */
import { bandPairs } from './banding.js';
import { blockPairs, DEFAULT_BLOCKING, type BlockingOptions } from './blocking.js';
import { assignClusters } from './clusters.js';
import { ComparablePeople } from './comparable-people.js';
import { comparePair } from './compare-pair.js';
import { FIELD_COUNT } from './comparisons.js';
import { FlatPeople } from './flat-people.js';
import { shippedNicknames, type Nicknames } from './nicknames.js';
import { prepare, PrepareCache, type Prepared } from './prepare.js';
import { DEFAULT_BANDS, type Bands } from './scoring.js';
import { TermFrequencies } from './term-frequencies.js';
import {
  DEFAULT_TRAINING,
  estimateU,
  patternsOf,
  train,
  withoutMatches,
  type Model,
  type TrainingOptions,
} from './training.js';
import type { CandidateResult, PersonFields } from './types.js';

export type { Band, CandidateCounts, CandidatePair, CandidateResult, PersonFields } from './types.js';
export type { Bands } from './scoring.js';

/** Times u is corrected for the matches among the random pairs, each followed by EM again. */
const U_ROUNDS = 2;

export interface CandidateOptions {
  bands?: Bands;
  blocking?: BlockingOptions;
  training?: TrainingOptions;
  nicknames?: Nicknames;
  /** Keeps a pair only when this says so (e.g. two records of one input that are identity duplicates). */
  keep?: (a: number, b: number) => boolean;
}

export interface CandidateRun extends CandidateResult {
  model: Model;
  /** How common each value is among the people: a record compared with a target contact reads it too. */
  frequencies: TermFrequencies;
}

export const findCandidates = (
  people: readonly PersonFields[],
  options: CandidateOptions = {},
): CandidateRun => {
  const nicknames = options.nicknames ?? shippedNicknames();
  const cache = new PrepareCache(nicknames);
  return findPreparedCandidates(
    people.map((p) => prepare(p, nicknames, cache)),
    options,
  );
};

/** The same, for people prepared already (with `options.nicknames`). */
export const findPreparedCandidates = (
  prepared: readonly Prepared[],
  options: CandidateOptions = {},
): CandidateRun => matchPeople(FlatPeople.of(prepared), options);

/**
 * The same, for people laid out as the matcher reads them (with `options.nicknames`): what a run
 * stages as it reads (staged-people.ts).
 */
export const matchPeople = (flat: FlatPeople, options: CandidateOptions = {}): CandidateRun => {
  const nicknames = options.nicknames ?? shippedNicknames();
  const bands = options.bands ?? DEFAULT_BANDS;
  const training = options.training ?? DEFAULT_TRAINING;
  const count = flat.size;
  const blocked = blockPairs(flat, options.blocking ?? DEFAULT_BLOCKING);

  const people = new ComparablePeople(flat);
  const levels = new Int8Array(blocked.count * FIELD_COUNT);
  const swapped = new Uint8Array(blocked.count);
  for (let k = 0; k < blocked.count; k++) {
    const swap = comparePair(people, blocked.a[k]!, blocked.b[k]!, nicknames, levels, k * FIELD_COUNT);
    swapped[k] = swap ? 1 : 0;
  }
  const u = estimateU(count, (i, j, into, at) => comparePair(people, i, j, nicknames, into, at), training);
  // The distinct comparison vectors, counted once for every round of training.
  const patterns = patternsOf(levels, blocked.count);
  let model = train(patterns, u, count, training);
  for (let round = 0; round < U_ROUNDS; round++)
    model = train(patterns, withoutMatches(u, model, count, training), count, training);
  const frequencies = new TermFrequencies(flat);

  const pairs = bandPairs(
    { people: flat, blocked, levels, swapped, model, frequencies, keep: options.keep, patterns },
    bands,
  );
  pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
  const clusters = assignClusters(pairs, count);
  const likely = pairs.filter((p) => p.band === 'likely').length;
  return {
    pairs,
    model,
    frequencies,
    counts: {
      likely,
      possible: pairs.length - likely,
      clusters,
      blocksSkipped: blocked.blocksSkipped,
      compared: blocked.count,
    },
  };
};
