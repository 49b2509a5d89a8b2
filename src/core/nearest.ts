import { distance } from 'fastest-levenshtein';

/**
 * The candidate closest to `typed` (case-insensitive edit distance), if close enough to be a
 * plausible typo: 2 edits, or a third of the longer word, never more than 3.
 */
export const nearest = (typed: string, candidates: readonly string[]): string | undefined => {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(typed.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const allowed = Math.min(3, Math.max(2, Math.floor(Math.max(typed.length, best?.length ?? 0) / 3)));
  return best !== undefined && bestDistance > 0 && bestDistance <= allowed ? best : undefined;
};
