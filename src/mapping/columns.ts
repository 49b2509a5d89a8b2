import { relaxedName } from '../core/column-names.js';
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

/**
 * The names of one header (or one JSON object's keys), looked up the way detection compares them
 * (`relaxedName`): a column a pipeline names is found under its exact name, else under the first
 * name equal to it relaxed (`EMAIL`, `email`, `E mail`... for `Email`; `first_name` for
 * `First Name`). Built once per header; a lookup is one map access.
 */
export class ColumnIndex {
  // Built on first use: a family lookup needs only the relaxed list, a plain one only the maps.
  private exactNames: ReadonlySet<string> | undefined;
  private byRelaxedName: Map<string, string> | undefined;
  /** Each name with its relaxed form, in header order. */
  private relaxedNames: { name: string; relaxed: string }[] | undefined;
  /** Lookups of names not in the header as written, remembered (a row maps the same columns). */
  private readonly resolved = new Map<string, string | undefined>();

  constructor(readonly names: readonly string[]) {}

  private get exact(): ReadonlySet<string> {
    return (this.exactNames ??= new Set(this.names));
  }

  private get relaxed(): { name: string; relaxed: string }[] {
    return (this.relaxedNames ??= this.names.map((name) => ({ name, relaxed: relaxedName(name) })));
  }

  private get byRelaxed(): Map<string, string> {
    if (this.byRelaxedName === undefined) {
      this.byRelaxedName = new Map();
      for (const { name, relaxed } of this.relaxed)
        if (!this.byRelaxedName.has(relaxed)) this.byRelaxedName.set(relaxed, name);
    }
    return this.byRelaxedName;
  }

  /** The header's name for `column` (not a family), or undefined when absent. */
  resolve(column: string): string | undefined {
    if (this.exact.has(column)) return column;
    if (this.resolved.has(column)) return this.resolved.get(column);
    const found = this.byRelaxed.get(relaxedName(column));
    this.resolved.set(column, found);
    return found;
  }

  /** The header's columns a reference names, in family-number order for families. */
  match(column: string): ColumnMatch[] {
    if (!isFamily(column)) {
      const found = this.resolve(column);
      return found === undefined ? [] : [{ column: found }];
    }
    const numberOf = familyMatcher(relaxedName(column));
    const byNumber = new Map<string, string>();
    for (const { name, relaxed } of this.relaxed) {
      const n = numberOf(relaxed);
      if (n === undefined) continue;
      // Two names of one number (`Mail 1`, `mail_1`): the exact one, else the first.
      const held = byNumber.get(n);
      if (held === undefined || (name === withNumber(column, n) && held !== name)) byNumber.set(n, name);
    }
    return [...byNumber].map(([n, name]) => ({ column: name, n })).sort((a, b) => Number(a.n) - Number(b.n));
  }
}

let lastIndex: ColumnIndex | undefined;

/**
 * The columns a reference names among `available`, compared relaxed (see `ColumnIndex`). The
 * index of the last names asked about is kept, so asking about each reference of a pipeline in
 * turn relaxes every name once.
 */
export const matchColumn = (column: string, available: Iterable<string>): ColumnMatch[] => {
  const names = [...available];
  let index = lastIndex;
  const held = index?.names;
  if (!index || !held || held.length !== names.length || names.some((name, i) => name !== held[i]))
    lastIndex = index = new ColumnIndex(names);
  return index.match(column);
};
