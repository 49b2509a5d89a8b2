import { posix } from 'node:path';
import { getFormatFromId } from 'numfmt';
import { ImportError } from '../core/errors/index.js';
import { attribute, parseXml, unescapeOoxml, type XmlHandlers } from './xml-stream.js';
import type { WorkbookZip } from './xlsx-zip.js';
import {
  MAX_HELD_PART_BYTES,
  MAX_SHARED_STRING_CHARS,
  MAX_SHARED_STRINGS,
  MAX_WORKBOOK_ENTRIES,
} from './limits.js';

export interface SheetRef {
  name: string;
  /** The worksheet's part in the ZIP package. */
  part: string;
  hidden: boolean;
}

/** What a workbook's sheets need to be read: everything but the sheets themselves. */
export interface WorkbookModel {
  /** Worksheets in workbook (tab) order; chart sheets are left out. */
  sheets: SheetRef[];
  /** Serial 0 is 1904-01-01 (old Mac workbooks) instead of 1899-12-31. */
  date1904: boolean;
  sharedStrings: string[];
  /** The number format pattern of each cell style (the `s` attribute of a cell indexes it). */
  styleFormats: string[];
}

interface Relationship {
  target: string;
  type: string;
}

const relationshipType = (rel: Relationship, name: string): boolean => rel.type.endsWith(`/${name}`);

/** `xl/workbook.xml` -> `xl/_rels/workbook.xml.rels`. */
const relsPartOf = (part: string): string =>
  posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);

const resolveTarget = (fromPart: string, target: string): string =>
  target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(fromPart), target));

/** Past MAX_WORKBOOK_ENTRIES of one kind in a held part: damage (caught and named by parsePart). */
const countEntry = (count: number, what: string): void => {
  if (count >= MAX_WORKBOOK_ENTRIES) throw new Error(`it lists more than ${MAX_WORKBOOK_ENTRIES} ${what}`);
};

async function parsePart(zip: WorkbookZip, part: string, file: string, handlers: XmlHandlers): Promise<void> {
  const stream = await zip.stream(part, MAX_HELD_PART_BYTES);
  try {
    await parseXml(stream, handlers);
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      'input_unreadable',
      `${file}: the part ${part} cannot be read (${(error as Error).message}); the workbook may be damaged: open it in a spreadsheet program and save it again.`,
      { file },
      { cause: error },
    );
  }
}

async function readRelationships(
  zip: WorkbookZip,
  part: string,
  file: string,
): Promise<Map<string, Relationship>> {
  const rels = new Map<string, Relationship>();
  const relsPart = zip.find(relsPartOf(part));
  if (!relsPart) return rels;
  await parsePart(zip, relsPart, file, {
    open: (tag, name) => {
      if (name !== 'Relationship') return;
      const id = attribute(tag, 'Id');
      const target = attribute(tag, 'Target');
      if (id && target && attribute(tag, 'TargetMode') !== 'External') {
        countEntry(rels.size, 'relationships');
        rels.set(id, { target: resolveTarget(part, target), type: attribute(tag, 'Type') ?? '' });
      }
    },
  });
  return rels;
}

async function readStyleFormats(zip: WorkbookZip, part: string | undefined, file: string): Promise<string[]> {
  if (!part) return [];
  const custom = new Map<number, string>();
  const styleFormatIds: number[] = [];
  let inCellXfs = false;
  await parsePart(zip, part, file, {
    open: (tag, name) => {
      if (name === 'numFmt') {
        const id = Number(attribute(tag, 'numFmtId'));
        const code = attribute(tag, 'formatCode');
        if (Number.isInteger(id) && code !== undefined) {
          countEntry(custom.size, 'number formats');
          custom.set(id, code);
        }
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        countEntry(styleFormatIds.length, 'cell formats');
        styleFormatIds.push(Number(attribute(tag, 'numFmtId') ?? 0));
      }
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styleFormatIds.map((id) => custom.get(id) ?? builtInFormat(id));
}

/** Ids 0-81 are Excel's built-in formats; a higher id the styles part does not define is General. */
const LAST_BUILT_IN_FORMAT = 81;

/** Built-in formats are not written in the styles part; the en-US ones stand for them. */
const builtInFormat = (id: number): string => {
  if (!Number.isInteger(id) || id < 0 || id > LAST_BUILT_IN_FORMAT) return 'General';
  try {
    return getFormatFromId(id, 'en-US') || 'General';
  } catch {
    return 'General';
  }
};

/** The bounds on the shared strings table (limits.ts); a test gives smaller ones. */
export interface SharedStringLimits {
  strings: number;
  chars: number;
}

const SHARED_STRING_LIMITS: SharedStringLimits = {
  strings: MAX_SHARED_STRINGS,
  chars: MAX_SHARED_STRING_CHARS,
};

const tooManySharedStrings = (file: string, part: string, what: string): ImportError =>
  new ImportError(
    'input_unreadable',
    `${file}: its shared strings (${part}) hold more than ${what}, the most a workbook's shared strings may; the workbook is damaged or built to exhaust memory: save it again from a spreadsheet program, or export the sheet as CSV.`,
    { file, part },
  );

export async function readSharedStrings(
  zip: WorkbookZip,
  part: string | undefined,
  file: string,
  limits: SharedStringLimits = SHARED_STRING_LIMITS,
): Promise<string[]> {
  if (!part) return [];
  const strings: string[] = [];
  let current: string[] = [];
  let chars = 0;
  let inText = false;
  // Phonetic runs (rPh) are reading aids for East Asian text, not part of the cell's value.
  let phonetic = 0;
  await parsePart(zip, part, file, {
    open: (_tag, name) => {
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) inText = true;
    },
    text: (text) => {
      if (!inText) return;
      chars += text.length;
      if (chars > limits.chars) throw tooManySharedStrings(file, part, `${limits.chars} characters`);
      current.push(text);
    },
    close: (name) => {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        if (strings.length === limits.strings)
          throw tooManySharedStrings(file, part, `${limits.strings} strings`);
        strings.push(unescapeOoxml(current.join('')));
      }
    },
  });
  return strings;
}

async function officeDocumentPart(zip: WorkbookZip, file: string): Promise<string> {
  const rels = await readRelationships(zip, '', file);
  const main = [...rels.values()].find((rel) => relationshipType(rel, 'officeDocument'));
  const part = zip.find(main?.target ?? 'xl/workbook.xml');
  if (part) return part;
  throw new ImportError(
    'input_unreadable',
    `${file} is a ZIP file but not an Excel workbook (it has no workbook part); expected an .xlsx file saved by a spreadsheet program.`,
    { file },
  );
}

/** Reads the workbook, its relationships, styles and shared strings, in that order. */
export async function readWorkbookModel(zip: WorkbookZip, file: string): Promise<WorkbookModel> {
  const workbookPart = await officeDocumentPart(zip, file);
  const listed: Array<{ name: string; id: string; hidden: boolean }> = [];
  let date1904 = false;
  await parsePart(zip, workbookPart, file, {
    open: (tag, name) => {
      if (name === 'sheet') {
        countEntry(listed.length, 'sheets');
        listed.push({
          name: attribute(tag, 'name') ?? '',
          id: attribute(tag, 'id') ?? '',
          hidden: (attribute(tag, 'state') ?? 'visible') !== 'visible',
        });
      } else if (name === 'workbookPr') {
        const value = attribute(tag, 'date1904');
        date1904 = value === '1' || value === 'true';
      }
    },
  });
  const rels = await readRelationships(zip, workbookPart, file);
  const sheets: SheetRef[] = [];
  for (const sheet of listed) {
    const rel = rels.get(sheet.id);
    const part = rel && relationshipType(rel, 'worksheet') ? zip.find(rel.target) : undefined;
    if (part) sheets.push({ name: sheet.name, part, hidden: sheet.hidden });
  }
  const partOf = (type: string): string | undefined => {
    const rel = [...rels.values()].find((r) => relationshipType(r, type));
    return rel ? zip.find(rel.target) : undefined;
  };
  const styleFormats = await readStyleFormats(zip, partOf('styles'), file);
  const sharedStrings = await readSharedStrings(zip, partOf('sharedStrings'), file);
  return { sheets, date1904, sharedStrings, styleFormats };
}
