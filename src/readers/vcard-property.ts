import ICAL from 'ical.js';
import type { ContentLine } from './vcard-cards.js';
import {
  decodeBase64,
  decodeQuotedPrintable,
  escape21,
  escapeBreaks,
  recode,
  type Decoded,
} from './vcard-value.js';

/** One property of a card, as the mapping reads it. */
export interface VProperty {
  /** Apple's `item1` of `item1.EMAIL`, lowercase. */
  group?: string;
  /** Uppercase, without its group. */
  name: string;
  /** Parameters by lowercase name; TYPE=a,b and repeated TYPE= give several values. */
  params: Record<string, string[]>;
  /** The components of a structured value (N, ADR, ORG), else one; each a list of values. */
  parts: string[][];
  line: number;
}

export type ParsedProperty =
  | { ok: true; property: VProperty }
  | { ok: false; code: 'row_unparseable' | 'invalid_encoding'; message: string };

export type VCardVersion = '2.1' | '3.0' | '4.0';

/** Binary properties: never mapped, and large. PHOTO is counted by the caller. */
export const BINARY_PROPERTIES = new Set(['PHOTO', 'LOGO', 'SOUND', 'KEY']);

/** vCard 2.1 writes parameters without a name: `TEL;WORK;FAX`, `PHOTO;BASE64`. */
const ENCODING_WORDS = new Set(['quoted-printable', 'base64', 'b', '8bit', '7bit']);

interface SplitLine {
  /** `group.NAME` as written. */
  name: string;
  params: string[];
  value: string;
}

/** Cuts a content line at its `;` and first `:` outside double quotes (a parameter may hold either). */
const splitLine = (text: string): SplitLine | undefined => {
  const cuts: number[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ';') cuts.push(i);
    else if (!quoted && char === ':') {
      const bounds = [-1, ...cuts, i];
      const pieces = bounds.slice(1).map((end, k) => text.slice(bounds[k]! + 1, end));
      return { name: pieces[0]!.trim(), params: pieces.slice(1), value: text.slice(i + 1) };
    }
  }
  return undefined;
};

const paramName = (param: string): string =>
  param
    .slice(0, Math.max(param.indexOf('='), 0))
    .trim()
    .toLowerCase();
const paramValue = (param: string): string => param.slice(param.indexOf('=') + 1).replace(/^"|"$/g, '');

interface Prepared {
  line: string;
  encoding?: string;
  charset?: string;
}

/** Names every parameter (2.1's bare `WORK` is `TYPE=WORK`) and takes ENCODING and CHARSET out. */
const prepare = (split: SplitLine): Prepared => {
  const kept: string[] = [];
  const out: Prepared = { line: '' };
  for (const raw of split.params) {
    const param = raw.trim();
    if (param === '') continue;
    const name = paramName(param);
    if (name === '') {
      const word = param.toLowerCase();
      if (ENCODING_WORDS.has(word)) out.encoding = word;
      else kept.push(`TYPE=${param}`);
    } else if (paramValue(param).trim() === '') continue;
    else if (name === 'encoding') out.encoding = paramValue(param).toLowerCase();
    else if (name === 'charset') out.charset = paramValue(param);
    else kept.push(param);
  }
  out.line = [split.name, ...kept].join(';');
  return out;
};

/** The value as vCard 3.0 / 4.0 text: quoted-printable and base64 decoded, 2.1 escaping converted. */
const valueText = (
  split: SplitLine,
  prepared: Prepared,
  version: VCardVersion,
  fileEncoding: string,
): Decoded => {
  let decoded: Decoded;
  if (prepared.encoding === 'quoted-printable')
    decoded = decodeQuotedPrintable(split.value, prepared.charset);
  else if (prepared.encoding === 'b' || prepared.encoding === 'base64')
    decoded = decodeBase64(split.value, prepared.charset);
  else decoded = { ok: true, text: recode(split.value, fileEncoding, prepared.charset) };
  if (!decoded.ok) return decoded;
  const bare = split.name.slice(split.name.lastIndexOf('.') + 1).toUpperCase();
  if (version === '2.1') return { ok: true, text: escape21(decoded.text, bare === 'CATEGORIES') };
  return { ok: true, text: escapeBreaks(decoded.text) };
};

const designFor = (version: VCardVersion) =>
  version === '4.0' ? ICAL.design.vcard : ICAL.design.getDesignSet('vcard3');

/**
 * Undoes the escapes the parser leaves: in text, `\;`, and `\:` and `\"` that some writers add
 * (`http\://`, `\"AS IS\"`); in X- values (read raw), all of them.
 */
const unescapeLeft = (value: string, type: string): string => {
  if (!value.includes('\\')) return value;
  if (type === 'text' || type === 'uri') return value.replace(/\\([;:"])/g, '$1');
  return value.replace(/\\([\\;,:nN])/g, (_match, char: string) =>
    char === 'n' || char === 'N' ? '\n' : char,
  );
};

const asText = (value: unknown, type: string): string =>
  typeof value === 'string' ? unescapeLeft(value, type) : typeof value === 'number' ? String(value) : '';

const paramsOf = (raw: Record<string, unknown>): Record<string, string[]> => {
  const params: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'group') continue;
    const values = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
    params[name.toLowerCase()] = values.map((v) => v.trim()).filter((v) => v !== '');
  }
  return params;
};

/** jCal `[name, params, type, ...values]` as a VProperty. */
const fromJcal = (jcal: unknown[], line: number): VProperty => {
  const [name, rawParams, type, ...values] = jcal as [string, Record<string, unknown>, string, ...unknown[]];
  const structured = values.length === 1 && Array.isArray(values[0]);
  const parts = structured
    ? (values[0] as unknown[]).map((part) =>
        (Array.isArray(part) ? part : [part]).map((value) => asText(value, type)),
      )
    : [values.map((value) => asText(value, type))];
  const property: VProperty = { name: name.toUpperCase(), params: paramsOf(rawParams), parts, line };
  if (typeof rawParams.group === 'string') property.group = rawParams.group.toLowerCase();
  return property;
};

/** The bare property name of a content line (`EMAIL` of `item1.EMAIL;TYPE=WORK:...`), uppercase. */
export const propertyName = (text: string): string => {
  const end = text.search(/[;:]/);
  const name = end === -1 ? text : text.slice(0, end);
  return name
    .slice(name.lastIndexOf('.') + 1)
    .trim()
    .toUpperCase();
};

/**
 * Parses one unfolded content line with ical.js (vCard 3.0 rules for 2.1 and 3.0 cards, RFC 6350
 * for 4.0), after the 2.1 glue: named parameters, quoted-printable / base64 values decoded in
 * their CHARSET, 2.1 escaping made 3.0 escaping.
 */
export const parseProperty = (
  content: ContentLine,
  version: VCardVersion,
  fileEncoding: string,
): ParsedProperty => {
  const split = splitLine(content.text);
  if (split === undefined || split.name === '') {
    return {
      ok: false,
      code: 'row_unparseable',
      message: `line ${content.line} is not a property (expected NAME;PARAM=VALUE:VALUE)`,
    };
  }
  const prepared = prepare(split);
  const value = valueText(split, prepared, version, fileEncoding);
  if (!value.ok) {
    const name = propertyName(content.text);
    const message = `line ${content.line} (${name}), once its ${prepared.encoding} is decoded, ${value.message}`;
    return { ok: false, code: 'invalid_encoding', message };
  }
  try {
    const jcal = ICAL.parse.property(`${prepared.line}:${value.text}`, designFor(version)) as unknown[];
    return { ok: true, property: fromJcal(jcal, content.line) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.length > 160 ? `${message.slice(0, 160)}…` : message;
    return { ok: false, code: 'row_unparseable', message: `line ${content.line} cannot be read: ${reason}` };
  }
};
