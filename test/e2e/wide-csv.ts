import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';

/** `rows` generic rows with descriptions of `width` characters: over 8 MB, so workers normalize it. */
export const writeWide = (dir: string, rows: number, width: number): string => {
  const path = join(dir, 'wide.csv');
  const body = Array.from({ length: rows }, (_, i) => [
    `Wide Person${i}`,
    `wide.${i}@example.com`,
    `${i} `.padEnd(width, 'x'),
  ]);
  writeFileSync(path, stringify([['full_name', 'email', 'description'], ...body]));
  return path;
};
