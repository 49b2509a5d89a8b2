/** The yardstick: a bare csv-parse pass over the file, columns on, counting records. */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { args, report } from './common.js';

const { file } = args();
const started = performance.now();
let rows = 0;
for await (const record of createReadStream(file).pipe(parse({ columns: true, relax_column_count: true }))) {
  if (record) rows++;
}
const seconds = (performance.now() - started) / 1000;
report({ rows, seconds, rowsPerSecond: rows / seconds });
