import type { ColumnRef } from './schema.js';

/**
 * Column references of a pipeline file: plain names, alternatives (a list: the first present,
 * non-empty one wins) and numbered families (`E-mail {n} - Value`), matched against a CSV header
 * once, or against each JSON object's keys when there is no header.
 */

export const alternatives = (ref: ColumnRef | undefined): string[] =>
  ref === undefined ? [] : typeof ref === 'string' ? [ref] : ref;

export const isFamily = (column: string): boolean => column.includes('{n}');

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `E-mail {n} - Value` -> /^E-mail (\d+) - Value$/ */
export const familyPattern = (column: string): RegExp =>
  new RegExp(`^${column.split('{n}').map(escapeRegExp).join('(\\d+)')}$`);

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
  const pattern = familyPattern(column);
  const matches: ColumnMatch[] = [];
  for (const name of available) {
    const found = pattern.exec(name);
    if (found) matches.push({ column: name, n: found[1]! });
  }
  return matches.sort((a, b) => Number(a.n) - Number(b.n));
};
