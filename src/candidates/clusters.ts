/** People linked by `likely` pairs, directly or through others, form one cluster. */
import type { CandidatePair } from './types.js';

/** Numbers the clusters (1, 2, ... by their first member) and sets each pair's; returns how many. */
export const assignClusters = (pairs: CandidatePair[], people: number): number => {
  const parent = new Int32Array(people).map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (const pair of pairs) {
    if (pair.band !== 'likely') continue;
    const x = find(pair.a);
    const y = find(pair.b);
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
  }
  const numbers = new Map<number, number>();
  for (const pair of pairs) {
    if (pair.band !== 'likely') continue;
    const root = find(pair.a);
    let number = numbers.get(root);
    if (number === undefined) numbers.set(root, (number = numbers.size + 1));
    pair.cluster = number;
  }
  // A `possible` pair whose people are both in one cluster shows that cluster too.
  for (const pair of pairs) {
    if (pair.band === 'likely') continue;
    const root = find(pair.a);
    if (root === find(pair.b) && numbers.has(root)) pair.cluster = numbers.get(root)!;
  }
  return numbers.size;
};
