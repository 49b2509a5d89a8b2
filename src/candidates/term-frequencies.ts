/**
 * How common each value is among the people compared: two people agreeing on a rare last name
 * (`Nakamura`) are likelier one person than two agreeing on `Smith`.
 */
import { COMPARISONS } from './comparisons.js';
import type { FlatPeople } from './flat-people.js';

export class TermFrequencies {
  /** Per field with a frequency: count of each value, and of people with a value. */
  private readonly counts: (Map<string, number> | undefined)[];
  private readonly totals: number[];
  /** Per field: the chance that two people picked at random agree, sum of squared shares. */
  readonly agreement: number[];

  constructor(people: FlatPeople) {
    this.counts = COMPARISONS.map((c) => ('frequencyOf' in c ? new Map<string, number>() : undefined));
    this.totals = COMPARISONS.map(() => 0);
    this.agreement = COMPARISONS.map(() => 0);
    COMPARISONS.forEach((comparison, field) => {
      const counts = this.counts[field];
      if (!counts || !('frequencyOf' in comparison)) return;
      const valueOf = people.frequencyValues(field);
      for (let i = 0; i < people.size; i++) {
        const value = valueOf(i);
        if (value === '') continue;
        counts.set(value, (counts.get(value) ?? 0) + 1);
        this.totals[field]!++;
      }
      const total = this.totals[field]!;
      let sum = 0;
      for (const count of counts.values()) sum += (count / total) ** 2;
      this.agreement[field] = sum;
    });
  }

  /** A value's share among the people with a value in that field; undefined without one. */
  share(field: number, value: string): number | undefined {
    const count = this.counts[field]?.get(value);
    const total = this.totals[field]!;
    return count === undefined || total === 0 ? undefined : count / total;
  }

  /** The smallest share of a value in that field; undefined without one. */
  rarestShare(field: number): number | undefined {
    const counts = this.counts[field];
    const total = this.totals[field]!;
    if (!counts || counts.size === 0 || total === 0) return undefined;
    let fewest = Infinity;
    for (const count of counts.values()) if (count < fewest) fewest = count;
    return fewest / total;
  }

  hasFrequencies(field: number): boolean {
    return this.counts[field] !== undefined;
  }
}
