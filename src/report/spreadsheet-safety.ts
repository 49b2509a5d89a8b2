/** Spreadsheet safety lives in core (readers of our own files undo it); the writers import it from here. */
export * from '../core/spreadsheet-safety.js';
