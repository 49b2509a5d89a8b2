/**
 * Declared date formats (`date_format` in a pipeline): tokens `YYYY`, `YY`, `MMMM`, `MMM`, `MM`,
 * `M`, `DD`, `D`; every other character is literal, and a space matches any run of whitespace.
 * Each format is compiled once into a full pattern and a year-less one (the year token and the
 * separator next to it removed: `MM/DD/YYYY` -> `MM/DD`, `DD.MM.YYYY` -> `DD.MM` or `DD.MM.`).
 */

export interface DateFields {
  year?: number;
  month: number;
  day: number;
}

interface CompiledPattern {
  regex: RegExp;
  /** The token each capture group holds, in order. */
  tokens: string[];
}

export interface CompiledDateFormat {
  full: CompiledPattern;
  yearless: CompiledPattern | undefined;
}

const TOKEN = /YYYY|YY|MMMM|MMM|MM|M|DD|D/g;
const TOKEN_PATTERNS: Record<string, string> = {
  YYYY: '(\\d{4})',
  YY: '(\\d{2})',
  MMMM: '(\\p{L}+\\.?)',
  MMM: '(\\p{L}+\\.?)',
  MM: '(\\d{1,2})',
  M: '(\\d{1,2})',
  DD: '(\\d{1,2})',
  D: '(\\d{1,2})',
};

const MONTHS = new Map<string, number>();
[
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may', 'may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sep', 'sept'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
].forEach((names, index) => names.forEach((name) => MONTHS.set(name, index + 1)));

export const monthFromName = (name: string): number | undefined =>
  MONTHS.get(name.toLowerCase().replace(/\.$/, ''));

const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

type Piece = { token: string } | { literal: string };

function tokenize(format: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of format.matchAll(TOKEN)) {
    if (match.index > last) pieces.push({ literal: format.slice(last, match.index) });
    pieces.push({ token: match[0] });
    last = match.index + match[0].length;
  }
  if (last < format.length) pieces.push({ literal: format.slice(last) });
  return pieces;
}

function literalPattern(literal: string): string {
  let pattern = '';
  let previous = '';
  for (const char of literal) {
    if (/\s/.test(char)) {
      if (!pattern.endsWith('\\s*') && !pattern.endsWith('\\s+'))
        pattern += previous === '' ? '\\s+' : '\\s*';
    } else pattern += escapeLiteral(char);
    previous = /\s/.test(char) ? previous : char;
  }
  return pattern;
}

function compilePieces(pieces: Piece[], optionalTail = ''): CompiledPattern {
  let source = '';
  const tokens: string[] = [];
  for (const piece of pieces) {
    if ('token' in piece) {
      source += TOKEN_PATTERNS[piece.token];
      tokens.push(piece.token);
    } else source += literalPattern(piece.literal);
  }
  if (optionalTail !== '') source += `(?:${literalPattern(optionalTail)})?`;
  return { regex: new RegExp(`^${source}$`, 'iu'), tokens };
}

function yearlessPieces(pieces: Piece[]): { pieces: Piece[]; tail: string } | undefined {
  const at = pieces.findIndex((piece) => 'token' in piece && piece.token.startsWith('Y'));
  if (at < 0) return undefined;
  const before = pieces[at - 1];
  const after = pieces[at + 1];
  if (at === pieces.length - 1 || (at === pieces.length - 2 && after !== undefined && 'literal' in after)) {
    // Year last: drop it and the separator before it; that separator may still end the value ("22.12.").
    const tail = before !== undefined && 'literal' in before ? before.literal.trim() : '';
    const start = before !== undefined && 'literal' in before ? at - 1 : at;
    return { pieces: pieces.slice(0, start), tail };
  }
  if (at === 0) return { pieces: pieces.slice(after !== undefined && 'literal' in after ? 2 : 1), tail: '' };
  // Year in the middle ("MMM YYYY D" is not a format anyone writes): no year-less form.
  return undefined;
}

const compiled = new Map<string, CompiledDateFormat | null>();

/** Compiles and caches a declared format; undefined when it lacks a month or a day token. */
export function compileDateFormat(format: string): CompiledDateFormat | undefined {
  const cached = compiled.get(format);
  if (cached !== undefined) return cached ?? undefined;
  const pieces = tokenize(format);
  const tokens = pieces.flatMap((piece) => ('token' in piece ? [piece.token] : []));
  const hasMonth = tokens.some((token) => token.startsWith('M'));
  const hasDay = tokens.some((token) => token.startsWith('D'));
  const valid = hasMonth && hasDay && new Set(tokens.map((token) => token[0])).size === tokens.length;
  if (!valid) {
    compiled.set(format, null);
    return undefined;
  }
  const yearless = yearlessPieces(pieces);
  const result: CompiledDateFormat = {
    full: compilePieces(pieces),
    yearless:
      yearless && yearless.pieces.length > 0 ? compilePieces(yearless.pieces, yearless.tail) : undefined,
  };
  compiled.set(format, result);
  return result;
}

/** Whether a pipeline's `date_format` can be used (it names a month and a day, each once). */
export const isSupportedDateFormat = (format: string): boolean => compileDateFormat(format) !== undefined;

/** Two-digit years: up to this year's two digits are 20xx, later ones 19xx (birthdays are past). */
function expandTwoDigitYear(twoDigits: number): number {
  const current = new Date().getUTCFullYear() % 100;
  return twoDigits <= current ? 2000 + twoDigits : 1900 + twoDigits;
}

/** Reads the fields a pattern captured; undefined when it does not match or a month name is unknown. */
export function matchPattern(pattern: CompiledPattern, value: string): DateFields | undefined {
  const match = pattern.regex.exec(value);
  if (match === null) return undefined;
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  for (let i = 0; i < pattern.tokens.length; i += 1) {
    const token = pattern.tokens[i];
    const text = match[i + 1] ?? '';
    if (token === 'YYYY') year = Number(text);
    else if (token === 'YY') year = expandTwoDigitYear(Number(text));
    else if (token === 'MMMM' || token === 'MMM') month = monthFromName(text);
    else if (token === 'MM' || token === 'M') month = Number(text);
    else day = Number(text);
  }
  if (month === undefined || day === undefined) return undefined;
  return year === undefined ? { month, day } : { year, month, day };
}
