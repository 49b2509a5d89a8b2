import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * The default phone region a draft proposes. Numbers written without `+country` (or `00`) need
 * one (`region: XX`); a file says which country it is from in two places: its numbers that do
 * carry a country code, and the country domains of its e-mail addresses (`.de`, `.co.uk`). The
 * most frequent country of the first, else of the second, is proposed, with a comment to check
 * it; a tie or no sign proposes none (the header comment then says to add one).
 */

export interface RegionGuess {
  /** How many sampled numbers have no country code. */
  national: number;
  /** The proposed region, when the file points to one. */
  region?: string;
  /** Why, for the YAML comment. */
  reason?: string;
}

/** Country-code domains used as generic names (`.io`, `.co`, `.me`, ...): no sign of a country. */
const VANITY = new Set([
  'io',
  'co',
  'me',
  'tv',
  'ai',
  'ly',
  'fm',
  'to',
  'ws',
  'cc',
  'gg',
  'sh',
  'so',
  'ac',
  'eu',
  'app',
]);

const isNational = (value: string): boolean => !/^\s*(?:\+|00)/.test(value);

/** The single most frequent key, or undefined on a tie or when there is none. */
const mostFrequent = (counts: Map<string, number>): string | undefined => {
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  return first && (!second || second[1] < first[1]) ? first[0] : undefined;
};

const count = (keys: (string | undefined)[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const key of keys) if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
};

const domainCountry = (email: string): string | undefined => {
  const tld = email.trim().toLowerCase().split('.').pop() ?? '';
  if (!/^[a-z]{2}$/.test(tld) || VANITY.has(tld)) return undefined;
  const region = tld === 'uk' ? 'GB' : tld.toUpperCase();
  return isSupportedCountry(region) ? region : undefined;
};

/** `phones` and `emails`: the sampled cells of the mapped columns, split into single values. */
export const guessRegion = (phones: readonly string[], emails: readonly string[]): RegionGuess => {
  const national = phones.filter(isNational).length;
  if (national === 0) return { national };
  const numbered = count(
    phones
      .filter((value) => !isNational(value))
      .map((value) => parsePhoneNumberFromString(value.replace(/^\s*00/, '+'))?.country),
  );
  const byNumbers = mostFrequent(numbered);
  if (byNumbers !== undefined)
    return {
      national,
      region: byNumbers,
      reason: `the country of most numbers written with +country in the sample`,
    };
  const byDomains = mostFrequent(count(emails.map(domainCountry)));
  if (byDomains !== undefined)
    return {
      national,
      region: byDomains,
      reason: `the country domain of most e-mail addresses in the sample`,
    };
  return { national };
};
