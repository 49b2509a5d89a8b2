import { iconv } from './iconv.js';
import { isUtf8 } from 'node:buffer';

/**
 * Value encodings of vCard 2.1 (and the odd 3.0 writer): quoted-printable and base64 bytes in a
 * declared CHARSET, and 2.1's own escaping, turned into the vCard 3.0 text the parser reads.
 */

export type Decoded = { ok: true; text: string } | { ok: false; message: string };

const ALIASES: Record<string, string> = {
  // Outlook declares us-ascii for text that holds Windows-1252 bytes.
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  utf8: 'utf-8',
};

/** The charset to decode with: the declared one when known, else UTF-8 if the bytes are, else Windows-1252. */
const charsetFor = (declared: string | undefined, bytes: Buffer): string => {
  const name = declared?.trim().toLowerCase();
  if (name) {
    const alias = ALIASES[name] ?? name;
    if (iconv().encodingExists(alias)) return alias;
  }
  return isUtf8(bytes) ? 'utf-8' : 'windows-1252';
};

const decodeBytes = (bytes: Buffer, declared: string | undefined): Decoded => {
  const charset = charsetFor(declared, bytes);
  if (charset === 'utf-8' && !isUtf8(bytes)) {
    return { ok: false, message: 'holds bytes that are not valid UTF-8, the charset it declares' };
  }
  return { ok: true, text: iconv().decode(bytes, charset) };
};

/** The value of a hex digit's char code, or -1. */
const hexValue = (code: number): number =>
  code >= 48 && code <= 57
    ? code - 48
    : code >= 65 && code <= 70
      ? code - 55
      : code >= 97 && code <= 102
        ? code - 87
        : -1;

/**
 * Quoted-printable `=XX` escapes to bytes; literal characters are taken in the declared charset.
 * One pass, bytes written into one buffer: linear in the value, a multi-megabyte photo included.
 */
export const decodeQuotedPrintable = (text: string, declared: string | undefined): Decoded => {
  const literalCharset = charsetFor(declared, Buffer.alloc(0));
  const parts: Buffer[] = [];
  const escaped = Buffer.allocUnsafe(Math.ceil(text.length / 3));
  let escapedLength = 0;
  let escapedFrom = 0;
  let literalFrom = 0;
  const takeEscaped = () => {
    if (escapedLength > escapedFrom) parts.push(escaped.subarray(escapedFrom, escapedLength));
    escapedFrom = escapedLength;
  };
  const takeLiteral = (end: number) => {
    if (end <= literalFrom) return;
    takeEscaped();
    const literal = text.slice(literalFrom, end);
    parts.push(
      literalCharset === 'utf-8' ? Buffer.from(literal, 'utf8') : iconv().encode(literal, literalCharset),
    );
  };
  for (let i = text.indexOf('='); i !== -1; i = text.indexOf('=', i + 1)) {
    const high = hexValue(text.charCodeAt(i + 1));
    const low = high === -1 ? -1 : hexValue(text.charCodeAt(i + 2));
    if (low !== -1) {
      takeLiteral(i);
      escaped[escapedLength++] = high * 16 + low;
      i += 2;
      literalFrom = i + 1;
    } else if (i === text.length - 1) {
      // A soft line break left at the very end of the value.
      takeLiteral(i);
      literalFrom = text.length;
    }
  }
  takeLiteral(text.length);
  takeEscaped();
  return decodeBytes(parts.length === 1 ? parts[0]! : Buffer.concat(parts), declared);
};

export const decodeBase64 = (text: string, declared: string | undefined): Decoded =>
  decodeBytes(Buffer.from(text.replace(/\s+/g, ''), 'base64'), declared);

/**
 * A value written raw in a file read as a single-byte encoding, but declaring another CHARSET
 * (a UTF-8 name in a Windows-1252 file): its bytes are read again in the declared charset.
 */
export const recode = (text: string, fileEncoding: string, declared: string | undefined): string => {
  const name = declared?.trim().toLowerCase();
  if (!name || fileEncoding === 'utf-8' || fileEncoding.startsWith('utf-16')) return text;
  const charset = ALIASES[name] ?? name;
  if (charset === fileEncoding || !iconv().encodingExists(charset)) return text;
  const bytes = iconv().encode(text, fileEncoding);
  if (charset === 'utf-8' && !isUtf8(bytes)) return text;
  return iconv().decode(bytes, charset);
};

/**
 * vCard 2.1 text in vCard 3.0 escaping: 2.1 escapes only `;` (and writers add `\,` and `\\`),
 * so a bare comma is a literal one (except in lists such as CATEGORIES), a lone backslash is a
 * backslash, and a line break from quoted-printable becomes `\n`.
 */
export const escape21 = (value: string, commaSeparatesValues: boolean): string => {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    const next = value[i + 1];
    if (char === '\\' && (next === ';' || next === ',' || next === '\\')) {
      out += char + next;
      i++;
    } else if (char === '\\' && (next === 'n' || next === 'N')) {
      out += '\\n';
      i++;
    } else if (char === '\\') out += '\\\\';
    else if (char === ',') out += commaSeparatesValues ? ',' : '\\,';
    else if (char === '\r' || char === '\n') {
      out += '\\n';
      if (char === '\r' && next === '\n') i++;
    } else out += char;
  }
  return out;
};

/** Line breaks decoded inside a vCard 3.0 or 4.0 value, as the escape the parser reads. */
export const escapeBreaks = (value: string): string => value.replace(/\r\n|\r|\n/g, '\\n');
