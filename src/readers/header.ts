import type { HeaderIssue } from './types.js';

export interface NamedHeader {
  /** Unique names, one per header cell, in column order. */
  names: string[];
  issues: HeaderIssue[];
}

/**
 * Unique column names from header cells: an empty cell becomes `column N` (1-based), a repeated
 * name keeps its first column and later ones become `Name (2)`, `Name (3)`... Cells are not trimmed.
 */
export function nameHeader(cells: readonly string[], file: string): NamedHeader {
  const taken = new Set(cells.filter((cell) => cell !== ''));
  const seen = new Set<string>();
  const issues: HeaderIssue[] = [];
  const names = cells.map((cell, index) => {
    const column = index + 1;
    if (cell === '') {
      const renamed = uniqueName(`column ${column}`, taken, seen, true);
      issues.push({
        code: 'empty_header',
        column,
        name: cell,
        renamed,
        message: `Header cell ${column} of ${file} is empty; its values are read as "${renamed}".`,
      });
      return renamed;
    }
    if (seen.has(cell)) {
      const renamed = uniqueName(cell, taken, seen, false);
      issues.push({
        code: 'duplicate_header',
        column,
        name: cell,
        renamed,
        message: `Header cell ${column} of ${file} repeats "${cell}"; its values are read as "${renamed}".`,
      });
      return renamed;
    }
    seen.add(cell);
    return cell;
  });
  return { names, issues };
}

function uniqueName(base: string, taken: Set<string>, seen: Set<string>, tryBase: boolean): string {
  let suffix = 2;
  let candidate = tryBase ? base : `${base} (${suffix})`;
  while (seen.has(candidate) || taken.has(candidate)) {
    suffix += tryBase && candidate === base ? 0 : 1;
    candidate = `${base} (${suffix})`;
  }
  seen.add(candidate);
  return candidate;
}
