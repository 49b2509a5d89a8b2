/**
 * Bounds that keep a reader's memory flat whatever the input: a record (CSV record, JSON array
 * element, NDJSON line) larger than MAX_RECORD_CHARS is never held whole.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/** Bytes looked at up front to detect the encoding (and, for CSV, the delimiter). */
export const DETECT_BYTES = 64 * 1024;

/** Nesting allowed inside one JSON record (the record object itself is level 1). */
export const MAX_JSON_DEPTH = 64;

/** Read size for files. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Bounds on a workbook (.xlsx), a ZIP package whose parts inflate to many times their stored
 * size. A part read whole into memory (workbook, relationships, styles, shared strings) may
 * inflate to MAX_HELD_PART_BYTES; a worksheet, read as it streams, to MAX_SHEET_PART_BYTES. The
 * shared strings table, held whole because any cell may name any string, to MAX_SHARED_STRINGS
 * strings of MAX_SHARED_STRING_CHARS characters in all. Past one, the run stops naming it.
 */
export const MAX_HELD_PART_BYTES = 512 * 1024 * 1024;
export const MAX_SHEET_PART_BYTES = 4 * 1024 * 1024 * 1024;
export const MAX_SHARED_STRINGS = 8_000_000;
export const MAX_SHARED_STRING_CHARS = 256 * 1024 * 1024;

/** Columns a worksheet can have (A to XFD): a cell said to be right of that is damage. */
export const MAX_SHEET_COLUMNS = 16_384;

/**
 * Bounds on what an XML parser holds between two events while it reads a workbook's part: text,
 * a name or an attribute value not yet ended (a cell's text is never past MAX_RECORD_CHARS), open
 * elements (a workbook nests a dozen deep), a tag's attributes. A damaged or hostile part that
 * never closes them would otherwise be held whole, hundreds of megabytes from a 1 MB file.
 */
export const MAX_XML_PENDING_CHARS = MAX_RECORD_CHARS;
export const MAX_XML_DEPTH = 1_000;
export const MAX_XML_ATTRIBUTES = 10_000;

/**
 * Entries a workbook's held parts may list: cell formats (Excel's own limit is 64,000), number
 * formats, sheets, relationships. A styles part of 100 million `<xf/>` (500 MB inflated, under
 * MAX_HELD_PART_BYTES) would otherwise be a list of 100 million numbers.
 */
export const MAX_WORKBOOK_ENTRIES = 1 << 16;
