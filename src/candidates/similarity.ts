/** String similarity and phonetic agreement, as the comparison levels use them. */
import jaroWinkler from 'jaro-winkler';

export const similarity = (a: string, b: string): number => (a === b ? 1 : jaroWinkler(a, b));

/** Whether two lists of double metaphone codes share one. */
export const soundsAlike = (a: readonly string[], b: readonly string[]): boolean =>
  a.some((code) => b.includes(code));
