/** How numbers, durations and long values read on the page. */

import { formatCount } from '../../core/format-count.js';

export const count = formatCount;

/**
 * The characters beyond ASCII that the page's templates set between their parts, given to them as
 * values: see `html` (safe-html.ts) for why a template's own text stays ASCII.
 */
export const DOT = '·';
export const DASH = '–';
export const ARROW = '→';

export const duration = (ms: number): string => {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

export const perSecond = (value: number, ms: number): string =>
  ms > 0 ? count(Math.round((value * 1000) / ms)) : '–';

export const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;

/** The last part of a path: examples name their file short (the inputs table has it whole). */
export const fileName = (path: string): string =>
  path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) || path;

/** A value cut for a table cell; the full text is in the CSV beside the page. */
export const clip = (value: string, max = 120): string =>
  value.length > max ? `${value.slice(0, max)}…` : value;

/** `,` for a comma, `TAB` for a tab: a delimiter readable in a table cell. */
export const delimiterName = (delimiter: string | null): string => {
  if (delimiter === null) return '–';
  if (delimiter === '\t') return 'TAB';
  if (delimiter === ' ') return 'space';
  return delimiter;
};

/** A link to a file beside the page: always relative (`./`), so no name can become a scheme. */
export const fileLink = (file: string): string => `./${encodeURIComponent(file)}`;
