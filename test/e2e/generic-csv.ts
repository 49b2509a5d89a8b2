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

/** Deterministic people for load tests: unique e-mails and valid US phones. */
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
