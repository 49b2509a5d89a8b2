import type { HeaderIssue } from './types.js';
import { nameHeader } from './header.js';
import { columnLetters, type CellRange, type SheetRow } from './xlsx-sheet.js';

export interface SheetHeader {
  /** Unique column names, one per column from A to the header's last (see nameHeader). */
  names: string[];
  issues: HeaderIssue[];
}

/**
 * Names a sheet's columns from its header row. A header cell merged across columns names each of
 * them (`Phone`, `Phone (2)`), so the values under every part of it are read; other empty or
 * repeated cells follow the CSV rules (`column 4`, `Email (2)`). The header spans to its last
 * cell that shows something, or the last column of a merge in it.
 */
export function nameSheetHeader(row: SheetRow, merges: readonly CellRange[], file: string): SheetHeader {
  const inRow = merges.filter((m) => m.top === row.line && m.right > m.left);
  const width = Math.max(0, ...row.cells.map((c) => c.column), ...inRow.map((m) => m.right));
  const cells = new Array<string>(width).fill('');
  for (const { column, text } of row.cells) cells[column - 1] = text;

  const mergedInto = new Map<number, { range: CellRange; text: string }>();
  for (const range of inRow) {
    const text = cells[range.left - 1] ?? '';
    if (text === '') continue;
    for (let column = range.left + 1; column <= range.right; column++) {
      if (cells[column - 1] !== '') continue;
      cells[column - 1] = text;
      mergedInto.set(column, { range, text });
    }
  }

  const named = nameHeader(cells, file);
  const issues = named.issues.map((issue): HeaderIssue => {
    const merged = mergedInto.get(issue.column);
    if (!merged) return issue;
    return {
      code: 'empty_header',
      column: issue.column,
      name: '',
      renamed: issue.renamed,
      message: `Header cell ${issue.column} (${columnLetters(issue.column)}) of ${file} is part of the merged cell ${merged.range.ref} "${merged.text}"; its values are read as "${issue.renamed}".`,
    };
  });
  return { names: named.names, issues };
}
