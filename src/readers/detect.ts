import { extname } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import type { InputFormat } from './types.js';
import { UNSUPPORTED_SPREADSHEETS } from './file-kind.js';
import { labelOfPrefix } from './line-transcoder.js';

const FORMAT_BY_EXTENSION: Record<string, InputFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
  '.vcf': 'vcard',
  '.vcard': 'vcard',
};

/** The format told by the file name; `-` (stdin) is CSV unless the dialect declares a format. */
export function detectFormat(path: string): InputFormat {
  if (path === '-') return 'csv';
  const extension = extname(path).toLowerCase();
  const format = FORMAT_BY_EXTENSION[extension];
  if (format) return format;
  const unsupported = UNSUPPORTED_SPREADSHEETS[extension];
  if (unsupported)
    throw new ImportError('input_format_unsupported', `${path} ${unsupported}`, { file: path });
  throw new ImportError(
    'input_format_unknown',
    `Cannot tell the format of ${path} from its extension "${extension}"; expected .csv, .tsv, .json, .ndjson, .jsonl, .xlsx, .vcf or .vcard, or a declared format.`,
    { file: path },
  );
}

export interface DetectedEncoding {
  encoding: string;
  /** Bytes of byte-order mark at the start, to drop. */
  bomLength: number;
  /**
   * Present when the input is read line by line (line-transcoder.ts): no encoding was declared and
   * neither a UTF-16 BOM nor the UTF-16 NUL pattern told one. `label` is what its first lines that
   * are not ASCII tell (undefined when all are ASCII; a UTF-8 BOM says UTF-8).
   */
  lineWise?: { label: string | undefined };
}

const BOMS: Array<{ bytes: number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

function bomOf(prefix: Buffer): DetectedEncoding | undefined {
  for (const bom of BOMS) {
    if (prefix.length >= bom.bytes.length && bom.bytes.every((byte, index) => prefix[index] === byte)) {
      return { encoding: bom.encoding, bomLength: bom.bytes.length };
    }
  }
  return undefined;
}

/** UTF-16 text of mostly Latin script has a NUL in every other byte, on one side only. */
function utf16Pattern(prefix: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(prefix.length / 2);
  if (pairs < 2) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < pairs * 2; index += 2) {
    if (prefix[index] === 0) evenZeros++;
    if (prefix[index + 1] === 0) oddZeros++;
  }
  if (oddZeros >= pairs * 0.3 && evenZeros <= pairs * 0.02) return 'utf-16le';
  if (evenZeros >= pairs * 0.3 && oddZeros <= pairs * 0.02) return 'utf-16be';
  return undefined;
}

/**
 * Encoding of an input from its first bytes: a declared encoding wins (its own BOM is dropped);
 * else a UTF-16 BOM or the UTF-16 NUL pattern; else the input is read line by line, each line as
 * UTF-8 or Windows-1252 (a UTF-8 BOM, or most of the first lines that are not ASCII, name the
 * file's encoding).
 */
export function detectEncoding(prefix: Buffer, atEnd: boolean, declared?: string): DetectedEncoding {
  const bom = bomOf(prefix);
  if (declared !== undefined) {
    return { encoding: declared, bomLength: bom?.encoding === declared ? bom.bomLength : 0 };
  }
  if (bom?.encoding === 'utf-8') return { ...bom, lineWise: { label: 'utf-8' } };
  if (bom) return bom;
  const utf16 = utf16Pattern(prefix);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  const label = labelOfPrefix(prefix, atEnd);
  return { encoding: label ?? 'utf-8', bomLength: 0, lineWise: { label } };
}

/** A NUL byte in the first bytes of a file that is not UTF-16 means it is binary, not text. */
export function assertNotBinary(prefix: Buffer, encoding: string, file: string): void {
  if (encoding.startsWith('utf-16')) return;
  const offset = prefix.indexOf(0);
  if (offset === -1) return;
  let line = 1;
  for (let index = prefix.indexOf(10); index !== -1 && index < offset; index = prefix.indexOf(10, index + 1))
    line++;
  throw new ImportError(
    'input_unreadable',
    `${file} holds a NUL byte at byte ${offset} (line ${line}): it looks like a binary file, expected ${encoding} text.`,
    { file, line, byte: offset },
  );
}

const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;

/**
 * The candidate that splits the header line into the most cells, counting outside quotes; ties
 * go to the earlier candidate, and a line none splits is one column of comma-separated data.
 */
export function detectDelimiter(headerLine: Buffer): string {
  const counts = new Map<number, number>(
    DELIMITER_CANDIDATES.map((candidate) => [candidate.charCodeAt(0), 0]),
  );
  let quoted = false;
  for (const byte of headerLine) {
    if (byte === 0x22) quoted = !quoted;
    else if (!quoted) {
      const count = counts.get(byte);
      if (count !== undefined) counts.set(byte, count + 1);
    }
  }
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of DELIMITER_CANDIDATES) {
    const count = counts.get(candidate.charCodeAt(0)) ?? 0;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
