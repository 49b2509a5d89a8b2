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
