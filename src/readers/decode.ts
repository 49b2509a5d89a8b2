import type Iconv from 'iconv-lite';
import { iconv } from './iconv.js';
import { ImportError } from '../core/errors/index.js';
import { LineTranscoder } from './line-transcoder.js';
import {
  completeUtf8Length,
  INVALID_MARK,
  isUtf8,
  hasLoneSurrogate,
  LONE_SURROGATE_MARK,
  repairUtf8,
  replaceLoneSurrogates,
} from './utf8.js';

/**
 * Turns the bytes of an input, in any supported encoding, into UTF-8 bytes, chunk by chunk. Every
 * reader parses UTF-8 after this step, so line and delimiter handling is the same for all encodings.
 */
export interface Transcoder {
  /** The input's encoding; one read line by line may learn it as it goes (line-transcoder.ts). */
  readonly encoding: string;
  /** True once some bytes were not valid in the encoding; they appear as INVALID_MARK. */
  invalidSeen: boolean;
  /** True once a NUL character went through; readers then check records for it. */
  nulSeen: boolean;
  /** True once half a surrogate pair was decoded (UTF-16); it reads as LONE_SURROGATE_MARK. */
  loneSurrogateSeen?: boolean;
  write(chunk: Buffer): Buffer;
  end(): Buffer;
  /**
   * The encoding some line of a record on lines [line, last] was read in when that is not
   * `encoding`; asked record by record, in order. Only an input read line by line has any.
   */
  otherEncodingIn?(line: number, last: number): string | undefined;
}

const ALIASES: Record<string, string> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  'utf-8-bom': 'utf-8',
  utf16le: 'utf-16le',
  'utf-16le': 'utf-16le',
  'utf-16': 'utf-16le',
  ucs2: 'utf-16le',
  'ucs-2': 'utf-16le',
  utf16be: 'utf-16be',
  'utf-16be': 'utf-16be',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  win1252: 'windows-1252',
};

/** The canonical name of a declared encoding, or an ImportError naming what was declared. */
export function canonicalEncoding(declared: string, file: string): string {
  const key = declared.trim().toLowerCase();
  const alias = ALIASES[key];
  if (alias) return alias;
  if (iconv().encodingExists(key)) return key;
  throw new ImportError(
    'input_unreadable',
    `Encoding "${declared}" declared for ${file} is not supported; expected utf-8, utf-16le, utf-16be or windows-1252.`,
    { file },
  );
}

const EMPTY = Buffer.alloc(0);

class Utf8Transcoder implements Transcoder {
  readonly encoding = 'utf-8';
  invalidSeen = false;
  nulSeen = false;
  private carry: Buffer = EMPTY;

  write(chunk: Buffer): Buffer {
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = completeUtf8Length(data);
    this.carry = cut < data.length ? Buffer.from(data.subarray(cut)) : EMPTY;
    return this.check(data.subarray(0, cut));
  }

  end(): Buffer {
    const rest = this.carry;
    this.carry = EMPTY;
    return rest.length > 0 ? this.check(rest) : EMPTY;
  }

  private check(body: Buffer): Buffer {
    if (!this.nulSeen && body.indexOf(0) !== -1) this.nulSeen = true;
    if (isUtf8(body)) return body;
    this.invalidSeen = true;
    return repairUtf8(body);
  }
}

class IconvTranscoder implements Transcoder {
  invalidSeen = false;
  nulSeen = false;
  loneSurrogateSeen = false;
  private readonly decoder: Iconv.DecoderStream;

  constructor(readonly encoding: string) {
    this.decoder = iconv().getDecoder(encoding, { stripBOM: false });
  }

  write(chunk: Buffer): Buffer {
    return this.check(this.decoder.write(chunk));
  }

  end(): Buffer {
    return this.check(this.decoder.end() ?? '');
  }

  private check(decoded: string): Buffer {
    if (decoded.length === 0) return EMPTY;
    let text = decoded;
    if (hasLoneSurrogate(text)) {
      this.loneSurrogateSeen = true;
      text = replaceLoneSurrogates(text, LONE_SURROGATE_MARK);
    }
    const bytes = Buffer.from(text, 'utf8');
    if (!this.nulSeen && bytes.indexOf(0) !== -1) this.nulSeen = true;
    return bytes;
  }
}

/**
 * The decoder for an input: line by line, UTF-8 or Windows-1252 each, when its encoding was not
 * declared and no BOM or NUL pattern told another (`lineWise`, the label from detection).
 */
export function createTranscoder(encoding: string, lineWise?: { label: string | undefined }): Transcoder {
  if (lineWise) return new LineTranscoder(lineWise.label);
  return encoding === 'utf-8' ? new Utf8Transcoder() : new IconvTranscoder(encoding);
}

/** Replaces the invalid-byte stand-in with U+FFFD for text shown to users. */
export const showInvalid = (text: string): string => text.replaceAll(INVALID_MARK, '\uFFFD');
export { INVALID_MARK };
