import { distance } from 'fastest-levenshtein';

/** The most edits a typo may have (allowedEdits never allows more). */
const MAX_EDITS = 3;

/** Edits a typo of two words this long may have: 2, or a third of the longer word, never more than 3. */
const allowedEdits = (typed: string, candidate: string): number =>
  Math.min(MAX_EDITS, Math.max(2, Math.floor(Math.max(typed.length, candidate.length) / 3)));

/**
 * The candidate closest to `typed` (case-insensitive edit distance), if close enough to be a
 * plausible typo (allowedEdits). Candidates whose length differs by more than MAX_EDITS are not
 * measured: they are that many edits away at least, so neither the closest nor close enough.
 */
export const nearest = (typed: string, candidates: readonly string[]): string | undefined =>
  nearestLowered(
    typed.toLowerCase(),
    candidates,
    candidates.map((candidate) => candidate.toLowerCase()),
  );

/**
 * nearest, for a caller that asks for many typed words among the same candidates: `typed`
 * lowercased already, and `lowered[k]` the lowercase form of `candidates[k]`.
 */
export const nearestLowered = (
  typed: string,
  candidates: readonly string[],
  lowered: readonly string[],
): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  candidates.forEach((candidate, index) => {
    const other = lowered[index]!;
    if (Math.abs(other.length - typed.length) > MAX_EDITS) return;
    const d = distance(typed, other);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  });
  return best !== undefined && bestDistance > 0 && bestDistance <= allowedEdits(typed, best)
    ? best
    : undefined;
};
