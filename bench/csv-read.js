#!/usr/bin/env node
/**
 * The CSV reader of two builds side by side, in one process: each build's `openSource` over the
 * same file, every row read, passes alternated so a busy neighbour slows both alike; CPU microseconds
 * a row (this process's user + system time, which a busy neighbour disturbs less than the
 * clock), the best of `--repeat`, and a bare csv-parse pass (columns on) as the floor. Used to check
 * that a change in the reader (csv-parse-adapter.ts) costs no speed: build the old commit into one
 * folder, the new into another.
 *
 *   node bench/generate.js --format address-book-csv --rows 100000 --seed 1 --out /tmp/b.csv
 *   node bench/csv-read.js /tmp/b.csv --before /tmp/dist-before --after dist [--repeat 7]
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'csv-parse';
import { alternatePasses, sideBySideArgs } from './side-by-side.js';

const { path, flags } = sideBySideArgs('csv-read.js', 'address-book-csv');

const builds = {};
for (const name of ['before', 'after']) {
  const lib = await import(resolve(flags[name], 'index.js'));
  const pipeline = await lib.loadPipeline(flags.pipeline);
  builds[name] = async () => {
    const source = await lib.openSource(path, pipeline.dialect, {});
    let rows = 0;
    for await (const item of source.items) if (item.kind === 'row') rows++;
    return rows;
  };
}
const bare = async () => {
  let rows = 0;
  const parser = createReadStream(path).pipe(parse({ columns: true, relax_column_count: true }));
  for await (const record of parser) if (record) rows++;
  return rows;
};

const measures = { ...builds, 'bare csv-parse': bare };
const { taken, results: counts } = await alternatePasses(measures, Number(flags.repeat));
const best = Object.fromEntries(Object.entries(taken).map(([name, passes]) => [name, Math.min(...passes)]));
const ratios = taken.after.map((ms, pass) => ms / taken.before[pass]).sort((a, b) => a - b);
const rows = counts.before;
console.log(`${rows} rows (after read ${counts.after}, bare ${counts['bare csv-parse']})`);
for (const [name, ms] of Object.entries(best))
  console.log(`${name.padEnd(16)} ${((ms * 1000) / rows).toFixed(2)} us/row (best)`);
console.log(
  `after / before: ${(best.after / best.before).toFixed(3)} best over best; per pass ${ratios.map((r) => r.toFixed(3)).join(', ')}`,
);
