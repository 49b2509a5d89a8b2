/**
 * A cell that a spreadsheet would run as a formula (OWASP "CSV injection"): one that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return. Every CSV the tool writes passes its cells here.
 */
const FORMULA_LEADING = /^[=+\-@\t\r]/;

export const isFormulaLeading = (cell: string): boolean => FORMULA_LEADING.test(cell);

/** Prefixes a formula-leading cell with `'`, which spreadsheets show as text and do not evaluate. */
export const escapeFormula = (cell: string): string => (isFormulaLeading(cell) ? `'${cell}` : cell);
