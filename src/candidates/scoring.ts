/**
 * A pair's match probability from its comparison vector and the trained model, with the best
 * level of a name, postcode or city weighed by how rare the shared value is; and its band.
 */
import { COMPARISONS, FIELD, FIELD_COUNT, NULL } from './comparisons.js';
import type { FlatPeople, ShownValues } from './flat-people.js';
import type { Prepared } from './prepare.js';
import type { TermFrequencies } from './term-frequencies.js';
import type { Model } from './training.js';
import type { Band } from './types.js';

export interface Bands {
  likely: number;
  possible: number;
  /**
   * A pair below `possible` but at least this is still `possible` when each of its two records
   * has no better candidate (each other's best match): a person reviewing it sees the one
   * plausible partner of either record. Pairs of records only; a target contact is banded by
   * `possible` alone.
   */
  eachOthersBest?: number;
}

/**
 * `possible` is for a person to review: more likely one person than not, or each other's best
 * match by a fair margin of evidence.
 */
export const DEFAULT_BANDS: Bands = { likely: 0.99, possible: 0.5, eachOthersBest: 0.2 };

/** A rare value's weight may grow (and a common one's shrink) by this factor at most. */
const MAX_RARITY = 50;

/** Each field's level weights, log(m / u), taken once per model instead of once per pair. */
const weightsOf = new WeakMap<Model, readonly Float64Array[]>();
const weights = (model: Model): readonly Float64Array[] => {
  let table = weightsOf.get(model);
  if (!table) {
    table = model.m.map((m, f) => Float64Array.from(m, (mLevel, l) => Math.log(mLevel / model.u[f]![l]!)));
    weightsOf.set(model, table);
  }
  return table;
};

/** The score of the comparison vector at `at` in `levels` (FIELD_COUNT levels from there). */
export const scorePair = (
  levels: Int8Array,
  a: Prepared,
  b: Prepared,
  swapped: boolean,
  model: Model,
  frequencies: TermFrequencies,
  at = 0,
): number => {
  const weight = weights(model);
  let logOdds = Math.log(model.lambda / (1 - model.lambda));
  for (let f = 0; f < FIELD_COUNT; f++) {
    const level = levels[at + f]!;
    if (level === NULL) continue;
    logOdds += weight[f]![level]!;
    const comparison = COMPARISONS[f]!;
    if (level === comparison.levels.length - 1 && 'frequencyOf' in comparison) {
      // Agreeing (swapped or not), A's value is the shared one.
      const share = frequencies.share(f, comparison.frequencyOf(a)) ?? 0;
      const average = frequencies.agreement[f]!;
      if (share > 0 && average > 0) {
        const rarity = Math.min(MAX_RARITY, Math.max(1 / MAX_RARITY, average / share));
        logOdds += Math.log(rarity);
      }
    }
  }
  return 1 / (1 + Math.exp(-logOdds));
};

/**
 * scorePair for the people of one run, the same sums in the same order: the model's weights and
 * prior odds taken once, and each person's rarity term of a field worked out once, when first
 * needed, rather than looked up by value in every pair.
 */
export class PairScorer {
  private readonly weight: readonly Float64Array[];
  private readonly priorLogOdds: number;
  /** Per field, its best level; and its place among the fields weighed by rarity (-1: none). */
  private readonly best = new Int8Array(FIELD_COUNT);
  private readonly rare = new Int8Array(FIELD_COUNT).fill(-1);
  /** Per field weighed by rarity and person: 0 not worked out yet, 1 no term, 2 `terms` holds it. */
  private readonly known: Uint8Array;
  private readonly terms: Float64Array;
  /** Per field weighed by rarity, each person's value of it. */
  private readonly values: ((i: number) => string)[] = [];
  /** Per field, the largest rarity term (mostLogOdds), worked out when first asked for. */
  private mostTerms: Float64Array | undefined;

  constructor(
    model: Model,
    private readonly frequencies: TermFrequencies,
    private readonly people: FlatPeople,
  ) {
    this.weight = weights(model);
    this.priorLogOdds = Math.log(model.lambda / (1 - model.lambda));
    let rareFields = 0;
    COMPARISONS.forEach((comparison, f) => {
      this.best[f] = comparison.levels.length - 1;
      if ('frequencyOf' in comparison) {
        this.rare[f] = rareFields++;
        this.values[f] = people.frequencyValues(f);
      }
    });
    this.known = new Uint8Array(rareFields * people.size);
    this.terms = new Float64Array(rareFields * people.size);
  }

  /** scorePair of the vector at `at` of a pair of person `a` (by number), whose values are the shared ones. */
  score(levels: Int8Array, a: number, at: number): number {
    const { weight, best, rare } = this;
    let logOdds = this.priorLogOdds;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const level = levels[at + f]!;
      if (level === NULL) continue;
      logOdds += weight[f]![level]!;
      if (level === best[f] && rare[f]! >= 0) {
        const slot = rare[f]! * this.people.size + a;
        if (this.known[slot] === 0) this.workOut(f, a, slot);
        if (this.known[slot] === 2) logOdds += this.terms[slot]!;
      }
    }
    return 1 / (1 + Math.exp(-logOdds));
  }

  /**
   * At least the log-odds `score` adds up for any pair of these people with the vector at `at`:
   * no rarity term exceeds the rarest value's.
   */
  mostLogOdds(levels: Int8Array, at: number): number {
    const { weight, best, rare } = this;
    const mostTerms = (this.mostTerms ??= this.rarestTerms());
    let logOdds = this.priorLogOdds;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const level = levels[at + f]!;
      if (level === NULL) continue;
      logOdds += weight[f]![level]!;
      if (level === best[f] && rare[f]! >= 0) logOdds += mostTerms[f]!;
    }
    return logOdds;
  }

  /** Per field, the largest rarity term a person's value may add (none below nothing), as workOut works it out. */
  private rarestTerms(): Float64Array {
    const terms = new Float64Array(FIELD_COUNT);
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (this.rare[f]! < 0) continue;
      const share = this.frequencies.rarestShare(f) ?? 0;
      const average = this.frequencies.agreement[f]!;
      const rarity = Math.min(MAX_RARITY, Math.max(1 / MAX_RARITY, average / share));
      terms[f] = share > 0 && average > 0 ? Math.max(0, Math.log(rarity)) : 0;
    }
    return terms;
  }

  /** As scorePair weighs A's value of field f. */
  private workOut(f: number, a: number, slot: number): void {
    const share = this.frequencies.share(f, this.values[f]!(a)) ?? 0;
    const average = this.frequencies.agreement[f]!;
    if (share > 0 && average > 0) {
      const rarity = Math.min(MAX_RARITY, Math.max(1 / MAX_RARITY, average / share));
      this.terms[slot] = Math.log(rarity);
      this.known[slot] = 2;
    } else this.known[slot] = 1;
  }
}

export const bandOf = (score: number, bands: Bands = DEFAULT_BANDS): Band | undefined =>
  score >= bands.likely ? 'likely' : score >= bands.possible ? 'possible' : undefined;

/** `field: label` of each field's levels, made once: most reasons are one of these, shared by every pair. */
const LABELS: readonly (readonly string[])[] = COMPARISONS.map((c) =>
  c.levels.map((label) => `${c.field}: ${label}`),
);

/** What each field's comparison found, for a person to check: `first_name: nickname bob~robert`. */
export const reasonsOf = (
  levels: Int8Array,
  a: ShownValues,
  b: ShownValues,
  swapped: boolean,
  at = 0,
): string[] => {
  const reasons: string[] = [];
  if (swapped) reasons.push('name: first and last name swapped');
  for (let f = 0; f < FIELD_COUNT; f++) {
    const level = levels[at + f]!;
    if (level === NULL) continue;
    const comparison = COMPARISONS[f]!;
    const shown = level > 0 && level < comparison.levels.length - 1 ? valuesOf(f, a, b, swapped) : '';
    reasons.push(shown ? `${LABELS[f]![level]!} ${shown}` : LABELS[f]![level]!);
  }
  return reasons;
};

const valuesOf = (field: number, a: ShownValues, b: ShownValues, swapped: boolean): string => {
  switch (field) {
    case FIELD.first:
      return `${a.first}~${swapped ? b.last : b.first}`;
    case FIELD.last:
      return `${a.last}~${swapped ? b.first : b.last}`;
    case FIELD.company:
      return `${a.company}~${b.company}`;
    case FIELD.city:
      return `${a.city}~${b.city}`;
    default:
      return '';
  }
};
