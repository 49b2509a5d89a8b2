/**
 * A field's level per ordered pair of distinct values (by number), for the fields whose values
 * repeat across people (names, companies, cities): a compared pair looks up two small numbers
 * instead of comparing text and reading the similarity table by string.
 *
 * A level remembered must be what comparing the values again would give. It is, as long as the
 * similarity table (similarity.ts) has not been emptied since: the similarity it holds for two
 * values is the one measured in the order first met, which the level was worked out from. So the
 * levels are forgotten whenever that table is emptied (`similarityGeneration`), and may be
 * forgotten at any other time: looking one up again then finds the table as the first look-up
 * left it, and changes nothing in it.
 */
import { similarityGeneration } from './similarity.js';

/** Pairs remembered at most before the table is emptied: a few megabytes. */
const MAX_SIZE = 1 << 20;
const INITIAL_CAPACITY = 1 << 10;
/** What an empty slot holds: levels run from NULL (-1) up. */
const EMPTY = -128;

export class LevelMemo {
  private xs = new Int32Array(INITIAL_CAPACITY);
  private ys = new Int32Array(INITIAL_CAPACITY);
  private levels = new Int8Array(INITIAL_CAPACITY).fill(EMPTY);
  private size = 0;
  private generation = similarityGeneration();

  /** The level of (x, y) remembered, or undefined. */
  get(x: number, y: number): number | undefined {
    if (this.generation !== similarityGeneration()) this.forget();
    const mask = this.xs.length - 1;
    for (let slot = slotOf(x, y, mask); ; slot = (slot + 1) & mask) {
      const level = this.levels[slot]!;
      if (level === EMPTY) return undefined;
      if (this.xs[slot] === x && this.ys[slot] === y) return level;
    }
  }

  /** Remembers the level of (x, y), worked out just now (after `get` found none). */
  set(x: number, y: number, level: number): void {
    // Working it out may have emptied the similarity table: what was remembered before is stale.
    if (this.generation !== similarityGeneration()) this.forget();
    if (this.size >= MAX_SIZE) this.forget();
    if (2 * (this.size + 1) > this.xs.length) this.grow();
    this.place(x, y, level);
    this.size++;
  }

  private place(x: number, y: number, level: number): void {
    const mask = this.xs.length - 1;
    let slot = slotOf(x, y, mask);
    while (this.levels[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.xs[slot] = x;
    this.ys[slot] = y;
    this.levels[slot] = level;
  }

  private grow(): void {
    const { xs, ys, levels } = this;
    this.xs = new Int32Array(xs.length * 2);
    this.ys = new Int32Array(xs.length * 2);
    this.levels = new Int8Array(xs.length * 2).fill(EMPTY);
    for (let slot = 0; slot < xs.length; slot++)
      if (levels[slot] !== EMPTY) this.place(xs[slot]!, ys[slot]!, levels[slot]!);
  }

  private forget(): void {
    this.levels.fill(EMPTY);
    this.size = 0;
    this.generation = similarityGeneration();
  }
}

const slotOf = (x: number, y: number, mask: number): number => {
  let hash = Math.imul(x, 0x9e3779b1) ^ y;
  hash = Math.imul(hash ^ (hash >>> 15), 0x85ebca6b);
  return (hash ^ (hash >>> 13)) & mask;
};
