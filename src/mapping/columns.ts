import type { ColumnRef } from './schema.js';

/**
 * Column references of a pipeline file: plain names, alternatives (a list: the first present,
 * non-empty one wins) and numbered families (`E-mail {n} - Value`), matched against a CSV header
 * once, or against each JSON object's keys when there is no header.
 */

export const alternatives = (ref: ColumnRef | undefined): string[] =>
  ref === undefined ? [] : typeof ref === 'string' ? [ref] : ref;

export const isFamily = (column: string): boolean => column.includes('{n}');

/** A family number: one or more ASCII digits. */
const isDigits = (text: string): boolean => {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
};

/**
 * `E-mail {n} - Value` -> a matcher giving the number of `E-mail 12 - Value` (undefined when the
 * name is not in the family). No regular expression: a pattern from a pipeline file must not cost
 * more than one pass over a header name (several `(\d+)` groups backtrack exponentially). Every
 * `{n}` stands for the same number, as `withNumber` fills them, so its length follows from the
 * name's length and the check is one pass.
 */
export const familyMatcher = (column: string): ((name: string) => string | undefined) => {
  const parts = column.split('{n}');
  const places = parts.length - 1;
  const fixed = parts.reduce((sum, part) => sum + part.length, 0);
  return (name) => {
    const digits = (name.length - fixed) / places;
    if (!Number.isInteger(digits) || digits < 1) return undefined;
    let offset = 0;
    let n: string | undefined;
    for (const [index, part] of parts.entries()) {
      if (!name.startsWith(part, offset)) return undefined;
      offset += part.length;
      if (index === places) break;
      if (n === undefined) {
        n = name.slice(offset, offset + digits);
        if (!isDigits(n)) return undefined;
      } else if (!name.startsWith(n, offset)) return undefined;
      offset += digits;
    }
    return n;
  };
};

/** Puts a family member's number into a sibling column name (`E-mail {n} - Label`). */
export const withNumber = (column: string, n: string | undefined): string =>
  n === undefined ? column : column.replaceAll('{n}', n);

export interface ColumnMatch {
  column: string;
  /** The family number, for numbered families. */
  n?: string;
}

/** The columns a reference names among `available`, in family-number order for families. */
export const matchColumn = (column: string, available: Iterable<string>): ColumnMatch[] => {
  if (!isFamily(column)) {
    for (const name of available) if (name === column) return [{ column }];
    return [];
  }
  const numberOf = familyMatcher(column);
  const matches: ColumnMatch[] = [];
  for (const name of available) {
    const n = numberOf(name);
    if (n !== undefined) matches.push({ column: name, n });
  }
  return matches.sort((a, b) => Number(a.n) - Number(b.n));
};
