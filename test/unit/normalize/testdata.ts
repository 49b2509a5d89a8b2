import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The public test suites shared by the team (/work/shared/testdata), from the repository root. */
export const TESTDATA = path.resolve(import.meta.dirname, '../../../../shared/testdata');

/** Tab-separated rows without quoting (the phone and names folders say: read with quoting off). */
export function readPlainTsv(relative: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(path.join(TESTDATA, relative), 'utf8').split('\n');
  const columns = (header ?? '').split('\t');
  return lines
    .filter((line) => line !== '')
    .map((line) => {
      const cells = line.split('\t');
      return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
    });
}

/**
 * Tab-separated rows where a cell that starts with `"` is quoted CSV-style (`""` is one quote)
 * and may span lines: the e-mail folder's flattening (its comments hold line breaks).
 */
export function readQuotedTsv(relative: string): Record<string, string>[] {
  const text = readFileSync(path.join(TESTDATA, relative), 'utf8');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === '\t') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  const [columns = [], ...data] = rows;
  return data.map((cells) => Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])));
}
