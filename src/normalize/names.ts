import {
  CONJUNCTIONS,
  FIRST_NAME_TITLES,
  GIVEN_NAME_PARTICLES,
  isSuffixCompound,
  isTitleWord,
  NUMERAL_SUFFIXES,
  PARTICLES,
  SUFFIXES,
  wordKey,
} from './name-words.js';

export interface NameParts {
  /** Titles before the name ("Dr.", "Rt. Hon."). */
  prefix?: string;
  first?: string;
  middle?: string;
  last?: string;
  /** Suffixes after the name, joined with ", " ("Jr., MD"). */
  suffix?: string;
  nickname?: string;
}

const DOUBLE_QUOTED = /"([^"]*)"/gu;
const SINGLE_QUOTED = /(^|\s)'([^']+)'(?=\s|,|$)/gu;
const PARENTHESIZED = /\(([^()]*)\)/gu;
const PICTOGRAPHS = /\p{Extended_Pictographic}|\u200d|\ufe0f/gu;
const WHITESPACE = /\s+/gu;
const SPACE_BEFORE_COMMA = /\s+,/gu;

/** Placeholders that exports put in parentheses; they are not nicknames. */
const NOT_NICKNAMES = new Set(['unknown', 'none', 'n/a']);

function takeNicknames(text: string, nicknames: string[]): string {
  const keep = (nickname: string): string => {
    const trimmed = nickname.trim();
    if (trimmed !== '' && !NOT_NICKNAMES.has(trimmed.toLowerCase())) nicknames.push(trimmed);
    return ' ';
  };
  return text
    .replace(DOUBLE_QUOTED, (_match, nickname: string) => keep(nickname))
    .replace(SINGLE_QUOTED, (_match, lead: string, nickname: string) => lead + keep(nickname))
    .replace(PARENTHESIZED, (_match, nickname: string) => keep(nickname));
}

const isSuffixWord = (word: string): boolean =>
  SUFFIXES.has(wordKey(word)) || NUMERAL_SUFFIXES.has(wordKey(word)) || isSuffixCompound(word);
/** Suffixes that may follow a lone name; one-letter numerals ("V") need two names before them. */
const isStrongSuffix = (word: string): boolean =>
  !NUMERAL_SUFFIXES.has(wordKey(word)) || wordKey(word).length > 1;
/** A comma part made only of suffixes: "Jr.", "CLU", "Ph. D.", "MD". */
const isSuffixPart = (part: string): boolean =>
  part !== '' && (isSuffixWord(part.replace(/\s+/g, '')) || part.split(' ').every(isSuffixWord));

const isConjunction = (word: string): boolean => CONJUNCTIONS.has(word.toLowerCase());
const isConjunctionPiece = (piece: string): boolean => piece.split(' ').every(isConjunction);

/**
 * Joins words around conjunctions, as python-nameparser does ("John and Jane", "Secretary of
 * State"): neighbouring conjunctions first ("of the"), then each with the pieces beside it.
 * `rootNames` counts the words of the whole name that are not titles, suffixes or particles.
 */
function joinConjunctions(words: string[], rootNames: number): string[] {
  if (words.length < 3) return words;
  const pieces: string[] = [];
  for (const word of words) {
    const previous = pieces[pieces.length - 1];
    if (previous !== undefined && isConjunction(word) && isConjunctionPiece(previous))
      pieces[pieces.length - 1] = `${previous} ${word}`;
    else pieces.push(word);
  }
  for (let i = 0; i < pieces.length; i += 1) {
    const piece = pieces[i] ?? '';
    if (!isConjunctionPiece(piece) || pieces.length < 2) continue;
    // A one-letter conjunction in a short name is more likely an initial ("e j smith", "John e Smith").
    if (piece.length === 1 && (i === 0 || rootNames < 4)) continue;
    if (i === 0) pieces.splice(0, 2, `${piece} ${pieces[1]}`);
    else if (i === pieces.length - 1) {
      if (piece.length === 1) continue;
      pieces.splice(i - 1, 2, `${pieces[i - 1]} ${piece}`);
    } else pieces.splice(i - 1, 3, `${pieces[i - 1]} ${piece} ${pieces[i + 1]}`);
    i -= 1;
  }
  return pieces;
}

/** "ben" is a particle in "Ahmad ben Husain" but a given name in "Alex Ben Johnson". */
const isParticle = (piece: string): boolean =>
  PARTICLES.has(wordKey(piece)) &&
  !(GIVEN_NAME_PARTICLES.has(wordKey(piece)) && piece[0] !== piece[0]?.toLowerCase());

/** Joins a particle with the words after it up to the next particle ("van Gogh", "de la Vega"). */
function joinParticles(pieces: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < pieces.length; i += 1) {
    const piece = pieces[i] ?? '';
    // The first word is a given name even when it is also a particle ("Van Nguyen", "Ben Alex").
    if (i === 0 || !isParticle(piece) || i === pieces.length - 1) {
      joined.push(piece);
      continue;
    }
    let end = i + 1;
    while (end < pieces.length - 1 && isParticle(pieces[end] ?? '')) end += 1;
    end += 1;
    while (end < pieces.length && !isParticle(pieces[end] ?? '')) end += 1;
    joined.push(pieces.slice(i, end).join(' '));
    i = end - 1;
  }
  return joined;
}

/** A piece joined on a conjunction is a title when its first real word is ("Mr. and Mrs.", "The Rt"). */
const isTitlePiece = (piece: string): boolean =>
  isTitleWord(piece.split(' ').find((word) => !CONJUNCTIONS.has(word.toLowerCase())) ?? '');

interface WordParts {
  titles: string[];
  names: string[];
  suffixes: string[];
}

/** Titles from the front, suffixes from the back, then particles joined to what follows them. */
function peel(words: string[], rootNames: number, inFamilyName: boolean): WordParts {
  const pieces = joinConjunctions(words, rootNames);
  let start = 0;
  // A title never takes the last name word: "Dr King Jr" keeps "King" as the name.
  const nameLeftAfter = (index: number): boolean =>
    pieces.slice(index + 1).some((piece) => !isSuffixWord(piece));
  while (
    start < pieces.length &&
    isTitlePiece(pieces[start] ?? '') &&
    (nameLeftAfter(start) || pieces.length === 1)
  ) {
    start += 1;
  }
  let end = pieces.length;
  const suffixes: string[] = [];
  while (end > start) {
    const word = pieces[end - 1] ?? '';
    const namesLeft = end - 1 - start;
    const minimum = inFamilyName ? 1 : isStrongSuffix(word) ? 1 : 2;
    if (!isSuffixWord(word) || namesLeft < minimum) break;
    suffixes.unshift(word);
    end -= 1;
  }
  return { titles: pieces.slice(0, start), names: joinParticles(pieces.slice(start, end)), suffixes };
}

const words = (text: string): string[] => (text === '' ? [] : text.split(' '));

function assign(parts: NameParts, key: keyof NameParts, values: string[], separator = ' '): void {
  const value = values.filter((v) => v !== '').join(separator);
  if (value !== '') parts[key] = value;
}

/** Given, middle and family names from a run of name pieces (titles and suffixes already off). */
function assignGivenNames(parts: NameParts, names: string[], titles: string[], hasNickname: boolean): void {
  if (names.length === 0) return;
  if (names.length === 1) {
    const lastTitle = titles[titles.length - 1];
    const givenAfterTitle =
      lastTitle !== undefined && FIRST_NAME_TITLES.has(wordKey(lastTitle.split(' ').pop() ?? ''));
    // A lone name after "Dr" or beside a nickname is a family name; after "Sir" it is a given name.
    if ((titles.length > 0 && !givenAfterTitle) || hasNickname) parts.last = names[0];
    else parts.first = names[0];
    return;
  }
  parts.first = names[0];
  assign(parts, 'middle', names.slice(1, -1));
  parts.last = names[names.length - 1];
}

/**
 * Splits a full name into title, given, middle and family names, suffixes and nickname. Reads
 * "First Middle Last", "Last, First Middle" and "First Last, Suffix, Suffix" forms; titles
 * (Dr., Prof., Sir...), suffixes (Jr., III, PhD...), nicknames in quotes or parentheses,
 * particles (van, de, von...) and conjunctions ("John and Jane") are handled the way
 * python-nameparser does, with the differences listed in docs/normalization.md.
 */
export function splitFullName(full: string): NameParts {
  const nicknames: string[] = [];
  const text = takeNicknames(full.normalize('NFC').replace(PICTOGRAPHS, ' '), nicknames)
    .replace(WHITESPACE, ' ')
    .replace(SPACE_BEFORE_COMMA, ',')
    .trim();
  const commaParts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const parts: NameParts = {};
  assign(parts, 'nickname', nicknames, ', ');
  const hasNickname = nicknames.length > 0;
  const rootNames = commaParts
    .flatMap(words)
    .filter((word) => !isTitleWord(word) && !isSuffixWord(word) && !PARTICLES.has(wordKey(word))).length;
  const [head = '', ...rest] = commaParts;

  if (rest.length === 0 || rest.every(isSuffixPart)) {
    // "First Middle Last" or "First Last, Jr., CPA". A lone name before suffixes is a family name.
    const peeled = peel(words(head), rootNames, false);
    assign(parts, 'prefix', peeled.titles);
    assignGivenNames(
      parts,
      peeled.names,
      peeled.titles,
      hasNickname || (rest.length > 0 && peeled.titles.length === 0),
    );
    assign(parts, 'suffix', [...peeled.suffixes, ...rest], ', ');
    return parts;
  }

  // "Last [Suffix], [Title] First Middle [Suffix], Suffix..."
  const family = peel(words(head), rootNames, true);
  const given = peel(words(rest[0] ?? ''), rootNames, false);
  assign(parts, 'prefix', [...family.titles, ...given.titles]);
  assign(parts, 'last', family.names);
  if (given.names.length > 0) {
    parts.first = given.names[0];
    assign(parts, 'middle', given.names.slice(1));
  }
  assign(parts, 'suffix', [...family.suffixes, ...given.suffixes, ...rest.slice(1)], ', ');
  return parts;
}

/** "Prefix First Middle Last Suffix"; undefined when no part is given. The nickname is left out. */
export function composeFullName(parts: NameParts): string | undefined {
  const name = [parts.prefix, parts.first, parts.middle, parts.last, parts.suffix]
    .map((part) => part?.trim())
    .filter((part): part is string => part !== undefined && part !== '')
    .join(' ');
  return name === '' ? undefined : name;
}
