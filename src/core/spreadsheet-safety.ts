/**
 * A cell that a spreadsheet would run as a formula (OWASP "CSV injection"): one that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return. Every CSV the tool writes passes its cells here.
 */
const FORMULA_LEADING = /^[=+\-@\t\r]/;

/** A negative number: `-5`, `-3.25`, `-1 000 000`. */
const NEGATIVE_NUMBER = /^-\d{1,3}(?: \d{3})*(?:\.\d+)?$|^-\d+(?:\.\d+)?$/;
/** A number with a plus sign: `+5`, `+0.5`. */
const POSITIVE_NUMBER = /^\+\d+(?:\.\d+)?$/;
/**
 * An international phone number: `+`, then digits and the separators people write (space, dot,
 * dash, parentheses), each separator between digits (at most a parenthesis and a space together),
 * and at least 7 digits. `+2-3` is arithmetic, not a phone.
 */
const PHONE = /^\+\(?\d+\)?(?:(?:[ .-]|\) ?| ?\()\d+\)?)*$/;
const MIN_PHONE_DIGITS = 7;

const countDigits = (text: string): number => {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
  }
  return digits;
};

/**
 * True for a value that is plainly a number or a phone number: a signed number, or a `+` phone of
 * at least 7 digits whose separators sit between digits. Such a value is data, and escaping it
 * would change what the user gave (`+1 212 555 0000` is a phone, not a formula); an arithmetic
 * expression like `-2+3` or `+2-3` is not one, and stays escaped.
 */
export const isPlainNumberOrPhone = (cell: string): boolean =>
  NEGATIVE_NUMBER.test(cell) ||
  POSITIVE_NUMBER.test(cell) ||
  (PHONE.test(cell) && countDigits(cell) >= MIN_PHONE_DIGITS);

export const isFormulaLeading = (cell: string): boolean =>
  FORMULA_LEADING.test(cell) && !isPlainNumberOrPhone(cell);

/**
 * A cell that gets the guard: formula-leading, or formula-leading behind apostrophes (`'=x` as
 * data), so that removing one guard apostrophe gives back exactly what was written.
 */
export const needsFormulaGuard = (cell: string): boolean =>
  mayLeadFormula(cell.charCodeAt(0)) && isFormulaLeading(cell.replace(/^'+/, ''));

/**
 * Whether a cell starting with this character may need the guard: one of FORMULA_LEADING's, or the
 * apostrophe before one. Most cells start with none of them and are passed without a pattern run.
 */
const mayLeadFormula = (code: number): boolean =>
  code === 0x3d || // =
  code === 0x2b || // +
  code === 0x2d || // -
  code === 0x40 || // @
  code === 0x09 || // tab
  code === 0x0d || // carriage return
  code === 0x27; // '

/** Prefixes a formula-leading cell with `'`, which spreadsheets show as text and do not evaluate. */
export const escapeFormula = (cell: string): string => (needsFormulaGuard(cell) ? `'${cell}` : cell);

/**
 * The inverse of escapeFormula, for reading back a file we wrote (a rejected file): `'=Chief` is
 * `=Chief` again, `''=x` is `'=x`; any other cell is left as it is.
 */
export const removeFormulaGuard = (cell: string): string =>
  cell.startsWith("'") && needsFormulaGuard(cell.slice(1)) ? cell.slice(1) : cell;
