import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';

export interface Person {
  i: number;
  email: string;
  phone: string;
  group: string;
  color: string;
  title: string;
}

/**
 * The test-data builder: people made from their index alone (the same index, the same person, on
 * every machine and in every run), so a file written twice is the same file and a test can name
 * the person it expects. Unique e-mails and valid US phones.
 */
export const people = (count: number, from = 0): Person[] =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      i,
      email: `Person.${i}@Example.com`,
      phone: `(415) 555-${String(1000 + (i % 9000)).padStart(4, '0')}`,
      group: i % 2 === 0 ? 'Even' : 'Odd',
      color: ['red', 'green', 'blue'][i % 3]!,
      title: `Engineer ${i}`,
    };
  });

/** A `generic` CSV of the people, written to `dir/name`. */
export const writeGenericCsv = (dir: string, name: string, rows: Person[]): string => {
  const path = join(dir, name);
  const header = ['full_name', 'email', 'phone', 'job_title', 'groups', 'custom.Favorite Color'];
  const body = rows.map((p) => [
    `Person Number${p.i}`,
    p.email,
    p.phone,
    p.title,
    `${p.group};Everyone`,
    p.color,
  ]);
  writeFileSync(path, stringify([header, ...body]));
  return path;
};

/** A `full_name,email` CSV of `count` people from index `from`: the least a record needs. */
export const nameEmailCsv = (count: number, from = 0): string =>
  [
    'full_name,email',
    ...Array.from({ length: count }, (_, k) => `Person ${from + k},p${from + k}@example.com`),
  ].join('\n') + '\n';

/**
 * A generic CSV of `rows` people whose description is `width` characters (or `width(i)` for row
 * i), written to `dir/name`: wide rows, and files of many MB without many rows.
 */
export const writeWide = (
  dir: string,
  name: string,
  rows: number,
  width: number | ((i: number) => number),
): string => {
  const path = join(dir, name);
  const widthOf = typeof width === 'number' ? () => width : width;
  const body = Array.from({ length: rows }, (_, i) => [
    `Wide Person${i}`,
    `wide.${i}@example.com`,
    `${i} `.padEnd(widthOf(i), 'x'),
  ]);
  writeFileSync(path, stringify([['full_name', 'email', 'description'], ...body]));
  return path;
};
