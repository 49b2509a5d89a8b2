/**
 * Word lists for name splitting, lowercase and without periods ("Dr." is `dr`). Modeled on
 * python-nameparser's constants, trimmed of titles that are also common given names in address
 * books ("Dean", "Major", "Bishop" would otherwise turn "Dean Martin" into a title).
 */

export const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'master',
  'dr',
  'doctor',
  'prof',
  'professor',
  'sir',
  'dame',
  'lord',
  'lady',
  'madam',
  'madame',
  'mme',
  'mlle',
  'herr',
  'frau',
  'sr',
  'sra',
  'srta',
  'rev',
  'reverend',
  'revd',
  'fr',
  'father',
  'pastor',
  'rabbi',
  'imam',
  'sheikh',
  'cardinal',
  'archbishop',
  'pope',
  'hon',
  'honorable',
  'honourable',
  'rt',
  'right',
  'his',
  'her',
  'excellency',
  'majesty',
  'highness',
  'king',
  'queen',
  'prince',
  'princess',
  'duke',
  'duchess',
  'count',
  'countess',
  'baron',
  'baroness',
  'emperor',
  'empress',
  'sultan',
  'capt',
  'captain',
  'cpt',
  'col',
  'colonel',
  'gen',
  'general',
  'lt',
  'lieutenant',
  'maj',
  'sgt',
  'sergeant',
  'cmdr',
  'commander',
  'adm',
  'admiral',
  'cpl',
  'corporal',
  'pvt',
  'private',
  'brig',
  'brigadier',
  'judge',
  'justice',
  'magistrate',
  'us',
  'chief',
  'secretary',
  'senator',
  'sen',
  'rep',
  'representative',
  'gov',
  'governor',
  'president',
  'pres',
  'mayor',
  'ambassador',
  'amb',
  'coach',
  'officer',
  'atty',
  'attorney',
  'supt',
  'superintendent',
  'insp',
  'inspector',
  'mag',
  'supreme',
  'associate',
  'det',
  'detective',
  'dir',
  'prin',
  'principal',
  'chancellor',
  'vice',
  'deputy',
  'assoc',
  'asst',
]);

/** Titles after which a lone name is a given name ("Sir Gerald", "Queen Elizabeth"). */
export const FIRST_NAME_TITLES = new Set([
  'sir',
  'dame',
  'king',
  'queen',
  'prince',
  'princess',
  'pope',
  'emperor',
  'empress',
  'sultan',
  'sheikh',
]);

/**
 * Suffixes that never start or end a name, so one may follow a lone name ("Dr King Jr"). Roman
 * numerals and single letters are suffixes only when at least two name words stay before them
 * ("King John V." keeps "V." as the last name).
 */
export const SUFFIXES = new Set([
  'jr',
  'sr',
  'snr',
  'jnr',
  'esq',
  'esquire',
  'phd',
  'md',
  'do',
  'dds',
  'dmd',
  'dvm',
  'jd',
  'llb',
  'llm',
  'mba',
  'cpa',
  'cfa',
  'cfp',
  'clu',
  'chfc',
  'lutc',
  'rn',
  'lpn',
  'np',
  'pa',
  'pe',
  'qc',
  'kc',
  'mp',
  'mep',
  'msp',
  'obe',
  'mbe',
  'cbe',
  'kbe',
  'dbe',
  'frs',
  'fcs',
  'ret',
  'usmc',
  'usn',
  'usaf',
  'edd',
  'psyd',
  'dphil',
  'mpa',
  'msc',
  'bsc',
  'ba',
  'bs',
  'rph',
  'pharmd',
  'od',
  'cissp',
  'pmp',
  'aia',
  'faia',
]);
export const NUMERAL_SUFFIXES = new Set([
  'i',
  'ii',
  'iii',
  'iv',
  'v',
  'vi',
  'vii',
  'viii',
  'ix',
  '2nd',
  '3rd',
  '4th',
]);

/** Particles that start a family name ("de la Vega", "van Gogh", "St. John"). */
export const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'dela',
  'di',
  'da',
  'do',
  'dos',
  'das',
  'du',
  'la',
  'le',
  'les',
  'lo',
  'ter',
  'ten',
  'vander',
  'bin',
  'binti',
  'bint',
  'ibn',
  'ben',
  'bat',
  'abu',
  'al',
  'el',
  'st',
  'ste',
  'san',
  'santa',
  'mac',
  'mc',
  'ap',
  'af',
  'zu',
  'vel',
]);

/** Particles that are also given names: particles only when written in lowercase. */
export const GIVEN_NAME_PARTICLES = new Set(['ben']);

/** Words that join the words around them ("John and Jane", "Velasquez y Garcia", "Secretary of State"). */
export const CONJUNCTIONS = new Set(['and', '&', 'y', 'e', 'et', 'und', 'of', 'the']);

/** A word's lookup key: lowercase, periods removed ("Ph.D." -> `phd`). */
export const wordKey = (word: string): string => word.toLowerCase().replace(/\./g, '');

const COMPOUND_SEPARATORS = /[.-]/;

/** "Lt.Gen.", "Magistrate-Judge", "Msc.Ed.": several words of a list written together. */
const isCompoundOf = (word: string, words: Set<string>): boolean => {
  const parts = word
    .toLowerCase()
    .split(COMPOUND_SEPARATORS)
    .filter((part) => part !== '');
  return parts.length > 1 && parts.every((part) => words.has(part));
};

export const isTitleWord = (word: string): boolean => TITLES.has(wordKey(word)) || isCompoundOf(word, TITLES);

/** Degree abbreviations that appear only inside compounds ("Msc.Ed."); alone "Ed" is a name. */
const COMPOUND_SUFFIX_PARTS = new Set(['ed']);

export const isSuffixCompound = (word: string): boolean => {
  const parts = word
    .toLowerCase()
    .split('.')
    .filter((part) => part !== '');
  return parts.length > 1 && parts.every((part) => SUFFIXES.has(part) || COMPOUND_SUFFIX_PARTS.has(part));
};
