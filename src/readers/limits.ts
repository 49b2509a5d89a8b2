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
