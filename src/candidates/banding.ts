/**
 * The compared pairs scored and banded. `likely` and `possible` by score (scoring.ts); below
 * `possible`, a pair whose two people are each other's best candidate (neither has another pair
 * scoring as high) is still `possible` from `eachOthersBest`: a person reviewing it sees the one
 * plausible partner of either record.
 */
import type { BlockedPairs } from './blocking.js';
import { FIELD_COUNT } from './comparisons.js';
import { IntList } from './int-list.js';
import type { FlatPeople } from './flat-people.js';
import { bandOf, PairScorer, reasonsOf, type Bands } from './scoring.js';
import type { TermFrequencies } from './term-frequencies.js';
import type { Model, Patterns } from './training.js';
import type { CandidatePair } from './types.js';

export const EACH_OTHERS_BEST = "each other's best candidate";

/** Each person's best score and the next best (-1: none). */
class BestScores {
  private readonly best: Float64Array;
  private readonly next: Float64Array;

  constructor(people: number) {
    this.best = new Float64Array(people).fill(-1);
    this.next = new Float64Array(people).fill(-1);
  }

  see(x: number, score: number): void {
    if (score > this.best[x]!) {
      this.next[x] = this.best[x]!;
      this.best[x] = score;
    } else if (score > this.next[x]!) this.next[x] = score;
  }

  /** The best of x's pairs, and no other pair of x as high (a tie is nobody's best). */
  onlyBest(x: number, score: number): boolean {
    return this.best[x] === score && this.next[x]! < score;
  }
}

export interface Compared {
  people: FlatPeople;
  blocked: BlockedPairs;
  /** FIELD_COUNT levels per blocked pair. */
  levels: Int8Array;
  /** 1 where the pair's names were compared the other way round. */
  swapped: Uint8Array;
  model: Model;
  frequencies: TermFrequencies;
  keep?: ((a: number, b: number) => boolean) | undefined;
  /** The pairs' distinct vectors (training.ts): pairs whose vector cannot reach a band are not scored. */
  patterns?: Patterns | undefined;
}

/**
 * Log-odds this far below a band's are surely below it once summed again in another order: the
 * sums' rounding is many orders smaller.
 */
const ROUNDING = 1e-6;

/**
 * Per distinct vector, whether a pair with it may score `floor` or more: the others are in no band,
 * and no pair that is is anyone's best candidate for them, so they need not be scored at all.
 */
const reachable = (patterns: Patterns, scorer: PairScorer, floor: number): Uint8Array => {
  const floorLogOdds = Math.log(floor / (1 - floor));
  const may = new Uint8Array(patterns.weights.length);
  for (let i = 0; i < may.length; i++)
    may[i] = scorer.mostLogOdds(patterns.patterns, i * FIELD_COUNT) >= floorLogOdds - ROUNDING ? 1 : 0;
  return may;
};

/** The pairs in a band, unsorted. */
export const bandPairs = (compared: Compared, bands: Bands): CandidatePair[] => {
  const { people, blocked, levels, swapped, model, frequencies, keep } = compared;
  const pairs: CandidatePair[] = [];
  const best = new BestScores(people.size);
  const floor = Math.min(bands.possible, bands.eachOthersBest ?? bands.possible);
  /** Pairs below `possible` that may be each other's best: their numbers, and their scores. */
  const below = new IntList();
  const belowScores: number[] = [];
  const scorer = new PairScorer(model, frequencies, people);
  // The lowest score that is in a band or may be anyone's best candidate there.
  const lowest = Math.min(floor, bands.likely);
  const may =
    compared.patterns && lowest > 0 && lowest < 1 ? reachable(compared.patterns, scorer, lowest) : undefined;
  const patternOf = compared.patterns?.patternOf;
  const reasons = (k: number) =>
    reasonsOf(
      levels,
      people.shownValues(blocked.a[k]!),
      people.shownValues(blocked.b[k]!),
      swapped[k] === 1,
      k * FIELD_COUNT,
    );
  for (let k = 0; k < blocked.count; k++) {
    const a = blocked.a[k]!;
    const b = blocked.b[k]!;
    if (keep && !keep(a, b)) continue;
    if (may && may[patternOf![k]!] === 0) continue;
    const score = scorer.score(levels, a, k * FIELD_COUNT);
    best.see(a, score);
    best.see(b, score);
    const band = bandOf(score, bands);
    if (band) pairs.push({ a, b, score, band, reasons: reasons(k) });
    else if (score >= floor) {
      below.push(k);
      belowScores.push(score);
    }
  }
  for (let n = 0; n < below.length; n++) {
    const k = below.data[n]!;
    const score = belowScores[n]!;
    const a = blocked.a[k]!;
    const b = blocked.b[k]!;
    if (!best.onlyBest(a, score) || !best.onlyBest(b, score)) continue;
    pairs.push({ a, b, score, band: 'possible', reasons: [...reasons(k), EACH_OTHERS_BEST] });
  }
  return pairs;
};
