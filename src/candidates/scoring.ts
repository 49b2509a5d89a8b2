/**
 * A pair's match probability from its comparison vector and the trained model, with the best
 * level of a name, postcode or city weighed by how rare the shared value is; and its band.
 */
import { COMPARISONS, FIELD, FIELD_COUNT, NULL } from './comparisons.js';
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

export const bandOf = (score: number, bands: Bands = DEFAULT_BANDS): Band | undefined =>
  score >= bands.likely ? 'likely' : score >= bands.possible ? 'possible' : undefined;

/** `field: label` of each field's levels, made once: most reasons are one of these, shared by every pair. */
const LABELS: readonly (readonly string[])[] = COMPARISONS.map((c) =>
  c.levels.map((label) => `${c.field}: ${label}`),
);

/** What each field's comparison found, for a person to check: `first_name: nickname bob~robert`. */
export const reasonsOf = (
  levels: Int8Array,
  a: Prepared,
  b: Prepared,
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

const valuesOf = (field: number, a: Prepared, b: Prepared, swapped: boolean): string => {
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
