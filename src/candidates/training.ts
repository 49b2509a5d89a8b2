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
import { seededRandom } from '../core/random.js';
import { COMPARISONS, FIELD, FIELD_COUNT, NULL } from './comparisons.js';
import { IntList } from './int-list.js';

export interface Model {
  /** Share of all pairs of people that are one person. */
  lambda: number;
  m: number[][];
  u: number[][];
}

export interface TrainingOptions {
  /** Random pairs drawn for u. */
  randomPairs: number;
  iterations: number;
  seed: number;
}

export const DEFAULT_TRAINING: TrainingOptions = { randomPairs: 50_000, iterations: 50, seed: 1 };

const PRIOR_WEIGHT = 100;
const LAMBDA_PRIOR = 0.1;
const FLOOR = 1e-6;

/** Level counts per field of the first `count` comparison vectors, weighted. */
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

/**
 * u from random pairs: `compare(i, j, into)` fills the comparison vector of one pair. Some of
 * those pairs are one person (many, when a file holds several records a person); `withoutMatches`
 * takes them out once m and the share of matches are known.
 */
export const estimateU = (
  people: number,
  compare: (i: number, j: number, into: Int8Array, at: number) => void,
  options: TrainingOptions = DEFAULT_TRAINING,
): number[][] => {
  const all = (people * (people - 1)) / 2;
  const draws = Math.min(all, options.randomPairs);
  const levels = new Int8Array(draws * FIELD_COUNT);
  const random = seededRandom(options.seed);
  let k = 0;
  if (draws === all) {
    for (let i = 0; i < people; i++)
      for (let j = i + 1; j < people; j++) compare(i, j, levels, k++ * FIELD_COUNT);
  } else {
    while (k < draws) {
      const i = Math.floor(random() * people);
      const j = Math.floor(random() * people);
      if (i === j) continue;
      compare(i, j, levels, k++ * FIELD_COUNT);
    }
  }
  return withPrior(
    tally(levels, draws, () => 1),
    (f) => COMPARISONS[f]!.priorU,
  );
};

/**
 * u with the matches among the random pairs taken out: a level's share among random pairs is
 * lambda * m + (1 - lambda) * u. Without this, a file where people have several records makes a
 * shared birth date or e-mail look common between two people, because one person's records agree
 * on it. No share falls below what the draws can tell apart, nor below the prior's part of it.
 */
export const withoutMatches = (
  random: number[][],
  model: Model,
  people: number,
  options: TrainingOptions = DEFAULT_TRAINING,
): number[][] => {
  const { lambda } = model;
  const draws = Math.min((people * (people - 1)) / 2, options.randomPairs) + PRIOR_WEIGHT;
  return random.map((levels, f) => {
    // Neither below one draw nor below what the prior alone gives: a small file keeps its priors.
    const floor = (l: number) => Math.max(1, PRIOR_WEIGHT * COMPARISONS[f]!.priorU[l]!) / draws;
    const corrected = levels.map((u, l) => Math.max(floor(l), (u - lambda * model.m[f]![l]!) / (1 - lambda)));
    const total = corrected.reduce((s, u) => s + u, 0);
    return corrected.map((u) => u / total);
  });
};

/** Per field and level, log(m / u): worked out once for every vector read with one model. */
const logWeights = (model: Model): Float64Array[] =>
  model.m.map((m, f) => Float64Array.from(m, (mLevel, level) => Math.log(mLevel / model.u[f]![level]!)));

const logBayesFactor = (
  levels: Int8Array,
  k: number,
  weights: Float64Array[],
  fields: readonly number[],
): number => {
  let sum = 0;
  for (const f of fields) {
    const level = levels[k * FIELD_COUNT + f]!;
    if (level !== NULL) sum += weights[f]![level]!;
  }
  return sum;
};

/**
 * The distinct comparison vectors among the blocked pairs and how many pairs have each: EM reads
 * a few thousand patterns instead of every pair.
 */
export interface Patterns {
  /** FIELD_COUNT levels per distinct comparison vector, in order of the first pair with each. */
  patterns: Int8Array;
  /** How many compared pairs have each. */
  weights: Float64Array;
  /** Compared pairs in all. */
  count: number;
  /** Per compared pair, the number of its vector among `patterns`. */
  patternOf: Uint16Array | Int32Array;
}

/** Vectors numbered in two bytes. */
const FEW_PATTERNS = 1 << 16;

/** What an empty slot of the table of vectors holds: a vector's key is never negative. */
const NO_KEY = -1;

export const patternsOf = (levels: Int8Array, count: number): Patterns => {
  // The vectors by key in a table of their own (open addressing, at most half full): a few
  // thousand keys, looked up once per pair.
  let keys = new Int32Array(1 << 12).fill(NO_KEY);
  let numbers = new Int32Array(keys.length);
  const firsts = new IntList();
  const counts = new IntList();
  // Numbers of two bytes while there are few vectors, as there are: the list is one per pair.
  let patternOf: Uint16Array | Int32Array = new Uint16Array(count);
  const place = (key: number, number: number): void => {
    const mask = keys.length - 1;
    let slot = slotOfKey(key, mask);
    while (keys[slot] !== NO_KEY) slot = (slot + 1) & mask;
    keys[slot] = key;
    numbers[slot] = number;
  };
  for (let k = 0; k < count; k++) {
    // Levels run from NULL (-1) to 5: seven values a field, a vector of ten is below 7 ** 10.
    let key = 0;
    for (let f = 0; f < FIELD_COUNT; f++) key = key * 7 + levels[k * FIELD_COUNT + f]! + 1;
    const mask = keys.length - 1;
    let slot = slotOfKey(key, mask);
    while (keys[slot] !== NO_KEY && keys[slot] !== key) slot = (slot + 1) & mask;
    let number: number;
    if (keys[slot] === key) {
      number = numbers[slot]!;
      counts.data[number]!++;
    } else {
      number = counts.length;
      if (number === FEW_PATTERNS) patternOf = Int32Array.from(patternOf);
      firsts.push(k);
      counts.push(1);
      if (2 * counts.length > keys.length) {
        const old = keys;
        const oldNumbers = numbers;
        keys = new Int32Array(old.length * 2).fill(NO_KEY);
        numbers = new Int32Array(keys.length);
        for (let s = 0; s < old.length; s++) if (old[s] !== NO_KEY) place(old[s]!, oldNumbers[s]!);
        place(key, number);
      } else {
        keys[slot] = key;
        numbers[slot] = number;
      }
    }
    patternOf[k] = number;
  }
  const distinct = counts.length;
  const patterns = new Int8Array(distinct * FIELD_COUNT);
  const weights = new Float64Array(distinct);
  for (let i = 0; i < distinct; i++) {
    const first = firsts.data[i]!;
    patterns.set(levels.subarray(first * FIELD_COUNT, (first + 1) * FIELD_COUNT), i * FIELD_COUNT);
    weights[i] = counts.data[i]!;
  }
  return { patterns, weights, count, patternOf };
};

const slotOfKey = (key: number, mask: number): number => {
  const hash = Math.imul(key, 0x9e3779b1);
  return (hash ^ (hash >>> 16)) & mask;
};

/** Levels that identify one person: the same phone, e-mail address, birth date or street. */
const STRONG: readonly (readonly [number, number])[] = [
  [FIELD.phone, 2],
  [FIELD.email, 3],
  [FIELD.birthday, 4],
  [FIELD.street, 2],
];
/**
 * Fewer matches than this agreeing on an identifier: only the names' m is refined, from every pair
 * taken for one person.
 */
const MIN_STRONG = 30;

const strongPairs = (patterns: Int8Array, distinct: number): Uint8Array => {
  const strong = new Uint8Array(distinct);
  for (let i = 0; i < distinct; i++)
    for (const [f, level] of STRONG) if (patterns[i * FIELD_COUNT + f] === level) strong[i] = 1;
  return strong;
};

/** The name fields, on which most blocking keys agree. */
const NAME_FIELDS: readonly number[] = [FIELD.first, FIELD.last];
/** Rounds that refine the names' m once the other fields are learned. */
const NAME_ROUNDS = 5;
/**
 * At most this share of one person's pairs of records have first (or last) names that share
 * nothing: a married name or a second given name happen, not in one pair in ten. A larger
 * share learned means the pairs taken for one person were mostly not one person: a number many
 * share (a switchboard, a family's line) with a birth date that coincides in a large file. Names
 * would then weigh nothing, and a shared birth date alone would make a candidate of strangers.
 */
const NAME_DIFFERS_MAX = 0.1;

/** m of a name field with its `differs` level (level 0) held to NAME_DIFFERS_MAX, the rest scaled. */
const capDiffers = (field: number, m: number[]): number[] => {
  if (!NAME_FIELDS.includes(field) || m[0]! <= NAME_DIFFERS_MAX) return m;
  // All of it at `differs`: the other levels keep their priors' proportions.
  const rest = 1 - m[0]! > 1e-9 ? m : COMPARISONS[field]!.priorM;
  const scale = (1 - NAME_DIFFERS_MAX) / (1 - rest[0]!);
  return rest.map((value, level) => (level === 0 ? NAME_DIFFERS_MAX : value * scale));
};

/**
 * Fields whose m is read from the pairs agreeing on an identifier: the names, and the values many
 * people share (colleagues agree on a company, a job title, a city), which the blocked pairs'
 * colleagues and namesakes would otherwise teach as one person's.
 */
const REFINED: readonly number[] = [FIELD.first, FIELD.last, FIELD.company, FIELD.job, FIELD.city];
const ALL_FIELDS: readonly number[] = COMPARISONS.map((_, f) => f);
const OTHER_FIELDS: readonly number[] = COMPARISONS.map((_, f) => f).filter((f) => !NAME_FIELDS.includes(f));

/**
 * m and lambda by EM over the blocked pairs' comparison vectors, u kept as drawn.
 *
 * Most blocked pairs agree on a name because the blocks are made of names; EM run on every field
 * then takes "same name" for "same person" and learns that namesakes' companies, phones and
 * birthdays are what one person's look like. So, as Splink trains a blocking rule's own fields
 * apart: the EM reads every field but the names, which gives m of those fields and the share of
 * matches; m of the names, and of the values colleagues share (company, job title, city), is then
 * what they look like among the pairs taken for one person that agree on an identifier (phone,
 * e-mail address, birth date, street), refined a few rounds with every field read and only those
 * fields' m updated.
 */
export const train = (
  compared: Patterns,
  u: number[][],
  people: number,
  options: TrainingOptions = DEFAULT_TRAINING,
): Model => {
  const { patterns, weights, count } = compared;
  const distinct = weights.length;
  let model: Model = { lambda: LAMBDA_PRIOR, m: COMPARISONS.map((c) => [...c.priorM]), u };
  const matchWeight = new Float64Array(distinct);
  const expect = (fields: readonly number[]): number => {
    const priorOdds = Math.log(model.lambda / (1 - model.lambda));
    const levelWeights = logWeights(model);
    let matches = 0;
    for (let i = 0; i < distinct; i++) {
      const p = 1 / (1 + Math.exp(-(priorOdds + logBayesFactor(patterns, i, levelWeights, fields))));
      matchWeight[i] = p * weights[i]!;
      matches += matchWeight[i]!;
    }
    return matches;
  };
  const maximise = () =>
    withPrior(
      tally(patterns, distinct, (i) => matchWeight[i]!),
      (f) => COMPARISONS[f]!.priorM,
    );
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const matches = expect(OTHER_FIELDS);
    const lambda = (matches + PRIOR_WEIGHT * LAMBDA_PRIOR) / (count + PRIOR_WEIGHT);
    const m = maximise();
    const kept = model.m;
    const change = Math.abs(lambda - model.lambda);
    // Names keep their priors while the other fields are learned.
    model = {
      lambda: Math.min(0.99, Math.max(1e-4, lambda)),
      m: m.map((levelsM, f) => (NAME_FIELDS.includes(f) ? kept[f]! : levelsM)),
      u,
    };
    if (iteration > 2 && change < 1e-6) break;
  }
  expect(OTHER_FIELDS);
  const strong = strongPairs(patterns, distinct);
  for (let round = 0; round < NAME_ROUNDS; round++) {
    // Only pairs agreeing on an identifier of one person (a phone, an address, a birth date)
    // say what one person's names look like: fields many people share (a company, a city, a job
    // title) agree between colleagues too, whose names then look like one person's that differ.
    let strongMatches = 0;
    for (let i = 0; i < distinct; i++) if (strong[i] === 1) strongMatches += matchWeight[i]!;
    const enough = strongMatches >= MIN_STRONG;
    if (enough) for (let i = 0; i < distinct; i++) if (strong[i] === 0) matchWeight[i] = 0;
    const refined = enough ? REFINED : NAME_FIELDS;
    const names = maximise();
    model = {
      ...model,
      m: model.m.map((levelsM, f) => (refined.includes(f) ? capDiffers(f, names[f]!) : levelsM)),
    };
    expect(ALL_FIELDS);
  }
  // The share of matches among all pairs of people, which is what u (drawn from all pairs) goes with.
  const allPairs = Math.max(1, (people * (people - 1)) / 2);
  return { ...model, lambda: Math.min(0.5, Math.max(1e-12, (model.lambda * count) / allPairs)) };
};
