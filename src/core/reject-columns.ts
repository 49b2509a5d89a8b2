/**
 * Columns a run adds to rejected files: the record's row, and its errors in plain words. A
 * pipeline ignores input columns of these names, so a rejected file, once fixed, runs as it is.
 */
export const REJECT_COLUMNS = ['import_row', 'import_error'] as const;

export const isRejectColumn = (name: string): boolean => name === 'import_row' || name === 'import_error';
