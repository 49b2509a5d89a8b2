/**
 * The model's weights, learned from the people themselves (Fellegi-Sunter):
 *
 * - u, how often each level occurs between two different people: from pairs drawn at random
 *   (almost all of them are two people), then refined with m;
 * - m, how often each level occurs between two records of one person, and lambda, the share of
 *   compared pairs that are one person: by expectation-maximisation over the blocked pairs.
 *
 * Every estimate starts from the comparisons' priors, counted as `PRIOR_WEIGHT` pairs, so a small
 * file leans on them and a large one on its own data.
 */
import { mulberry32 } from './random.js';
import { COMPARISONS, FIELD_COUNT, NULL } from './comparisons.js';

export interface Model {
  /** Share of all pairs of people that are one person. */
  lambda: number;
  m: number[][];
  u: number[][];
}

export interface TrainingOptions {
  /** Random pairs drawn for u. */
  randomPairs: number;
  /** Blocked pairs the EM reads at most (drawn evenly when there are more). */
  emPairs: number;
  iterations: number;
  seed: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { randomPairs: 100_000, emPairs: 200_000, iterations: 30, seed: 1 };

const PRIOR_WEIGHT = 100;
const LAMBDA_PRIOR = 0.1;
const FLOOR = 1e-6;

/** Level counts per field of the comparison vectors given, weighted. */
const tally = (levels: Int8Array, count: number, weight: (k: number) => number): number[][] => {
  const counts = COMPARISONS.map((c) => new Array<number>(c.levels.length).fill(0));
  for (let k = 0; k < count; k++) {
    const w = weight(k);
    if (w === 0) continue;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const level = levels[k * FIELD_COUNT + f]!;
      if (level !== NULL) counts[f]![level]! += w;
    }
  }
  return counts;
};

/** Counts with the priors added as `PRIOR_WEIGHT` pairs, as probabilities. */
const withPrior = (counts: number[][], prior: (f: number) => readonly number[]): number[][] =>
  counts.map((levels, f) => {
    const total = levels.reduce((s, c) => s + c, 0) + PRIOR_WEIGHT;
    return levels.map((c, l) => Math.max(FLOOR, (c + PRIOR_WEIGHT * prior(f)[l]!) / total));
  });

/** u from random pairs: `compare(i, j, into)` fills the comparison vector of one pair. */
export const estimateU = (
  people: number,
  compare: (i: number, j: number, into: Int8Array) => void,
  options: TrainingOptions = DEFAULT_TRAINING,
): number[][] => {
  const all = (people * (people - 1)) / 2;
  const draws = Math.min(all, options.randomPairs);
  const levels = new Int8Array(draws * FIELD_COUNT);
  const random = mulberry32(options.seed);
  let k = 0;
  if (draws === all) {
    for (let i = 0; i < people; i++) for (let j = i + 1; j < people; j++) compare(i, j, levels.subarray(k * FIELD_COUNT, ++k * FIELD_COUNT));
  } else {
    while (k < draws) {
      const i = Math.floor(random() * people);
      const j = Math.floor(random() * people);
      if (i === j) continue;
      compare(i, j, levels.subarray(k * FIELD_COUNT, ++k * FIELD_COUNT));
    }
  }
  return withPrior(tally(levels, draws, () => 1), (f) => COMPARISONS[f]!.priorU);
};

const logBayesFactor = (levels: Int8Array, k: number, model: Model): number => {
  let sum = 0;
  for (let f = 0; f < FIELD_COUNT; f++) {
    const level = levels[k * FIELD_COUNT + f]!;
    if (level !== NULL) sum += Math.log(model.m[f]![level]! / model.u[f]![level]!);
  }
  return sum;
};

/** m and lambda (and u refined) by EM over the blocked pairs' comparison vectors. */
export const train = (
  levels: Int8Array,
  count: number,
  u: number[][],
  people: number,
  options: TrainingOptions = DEFAULT_TRAINING,
): Model => {
  const step = Math.max(1, Math.ceil(count / options.emPairs));
  const used: number[] = [];
  for (let k = 0; k < count; k += step) used.push(k);
  const randomU = u;
  let model: Model = { lambda: LAMBDA_PRIOR, m: COMPARISONS.map((c) => [...c.priorM]), u: randomU };
  const match = new Float64Array(count);
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const priorOdds = Math.log(model.lambda / (1 - model.lambda));
    let matches = 0;
    for (const k of used) {
      const p = 1 / (1 + Math.exp(-(priorOdds + logBayesFactor(levels, k, model))));
      match[k] = p;
      matches += p;
    }
    const lambda = (matches + PRIOR_WEIGHT * LAMBDA_PRIOR) / (used.length + PRIOR_WEIGHT);
    const inUse = new Uint8Array(count);
    for (const k of used) inUse[k] = 1;
    const m = withPrior(tally(levels, count, (k) => (inUse[k] ? match[k]! : 0)), (f) => COMPARISONS[f]!.priorM);
    const change = Math.abs(lambda - model.lambda);
    model = { lambda: Math.min(0.99, Math.max(1e-4, lambda)), m, u: randomU };
    if (iteration > 2 && change < 1e-5) break;
  }
  // The share of matches among all pairs of people, which is what u (drawn from all pairs) goes with.
  const allPairs = Math.max(1, (people * (people - 1)) / 2);
  return { ...model, lambda: Math.min(0.5, Math.max(1e-12, (model.lambda * count) / allPairs)) };
};
