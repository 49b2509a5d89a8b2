/** What a sample of cell values looks like, so a column without a telling header still finds its field. */
export type ValueKind = 'email' | 'url' | 'date' | 'phone' | 'yesno';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_LIKE = /^(?:https?:\/\/|www\.)\S+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\/\S*$/i;
const DATES = [
  /^\d{4}-\d{1,2}-\d{1,2}(?:[T ][\d:.]+Z?)?$/,
  /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/,
  /^--\d{2}-?\d{2}$/,
];
const PHONE_CHARS = /^\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?)\s*\d+)?$/i;
const YES_NO = new Set(['yes', 'no', 'true', 'false', 'y', 'n', 'oui', 'non', 'ja', 'nein']);

/** The kind of one trimmed cell, checked from the most to the least specific. */
export const classifyValue = (value: string): ValueKind | undefined => {
  const text = value.trim();
  if (text === '') return undefined;
  if (EMAIL.test(text)) return 'email';
  if (URL_LIKE.test(text)) return 'url';
  if (DATES.some((pattern) => pattern.test(text))) return 'date';
  const digits = text.replace(/\D/g, '').length;
  if (PHONE_CHARS.test(text) && digits >= 6 && digits <= 15) return 'phone';
  if (YES_NO.has(text.toLowerCase())) return 'yesno';
  return undefined;
};

/** Multi-value separators seen in exports, longest first so ` ::: ` is not read as `:`. */
const SEPARATORS = [' ::: ', ';', ','];

/** The separator that splits the samples' cells, when some cell holds several values of `kind`. */
export const multiValueSeparator = (samples: readonly string[], kind?: ValueKind): string | undefined =>
  SEPARATORS.find((separator) =>
    samples.some((cell) => {
      const parts = cell.split(separator).map((part) => part.trim());
      return (
        parts.length > 1 &&
        parts.every((part) => part !== '' && (kind === undefined || classifyValue(part) === kind))
      );
    }),
  );

/** The share of non-empty samples (each split on `separator`) whose every part is of `kind`. */
export const shareOfKind = (samples: readonly string[], kind: ValueKind, separator?: string): number => {
  const present = samples.map((cell) => cell.trim()).filter((cell) => cell !== '');
  if (present.length === 0) return 0;
  const matching = present.filter((cell) =>
    (separator === undefined ? [cell] : cell.split(separator)).every((part) => classifyValue(part) === kind),
  );
  return matching.length / present.length;
};

/** The kind most samples share (at least 80% of the non-empty ones), if any. */
export const dominantKind = (samples: readonly string[]): ValueKind | undefined => {
  const separator = multiValueSeparator(samples);
  for (const kind of ['email', 'url', 'date', 'phone', 'yesno'] as const) {
    if (shareOfKind(samples, kind, kind === 'email' || kind === 'phone' ? separator : undefined) >= 0.8)
      return kind;
  }
  return undefined;
};

/**
 * The pipeline date format the date-like samples are written in: undefined for ISO 8601 (always
 * read), day first when some first part exceeds 12 or the parts are dotted, else month first.
 */
export const guessDateFormat = (samples: readonly string[]): string | undefined => {
  const numeric = samples
    .map((cell) => /^(\d{1,2})([./-])(\d{1,2})\2(\d{2,4})$/.exec(cell.trim()))
    .filter((m) => m !== null);
  if (numeric.length === 0) return undefined;
  const separator = numeric[0]![2]!;
  const year = numeric[0]![4]!.length === 4 ? 'YYYY' : 'YY';
  if (year === 'YY') return undefined;
  const dayFirst = separator === '.' || numeric.some((m) => Number(m[1]) > 12);
  return dayFirst ? `D${separator}M${separator}${year}` : `M${separator}D${separator}${year}`;
};
