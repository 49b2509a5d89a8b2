#!/usr/bin/env node
/**
 * The normalize stage's per-row work of two builds side by side, in one process: each build reads
 * the same file once (its own reader), then passes over the rows in memory alternate between the
 * builds (every other pass in the other order), so a busy neighbour slows both alike. CPU
 * microseconds a row (this process's user + system time), best and median of `--repeat`:
 *
 * - `map`: the pipeline's mapping of each row as the normalize stage hands it over, a row whose
 *   keyed view (`values`) is built anew each time it is read, as a reader's row is the first time.
 * - `map+normalize+serialize`: the build's createRowNormalizer over the reader's rows.
 *
 *   node bench/generate.js --format address-book-csv --rows 100000 --seed 1 --out /tmp/b.csv
 *   node bench/normalize-rows.js /tmp/b.csv --pipeline address-book-csv --before <old dist> [--after dist] [--repeat 7]
 */
import { resolve } from 'node:path';
import { alternatePasses, sideBySideArgs } from './side-by-side.js';

const { path, flags } = sideBySideArgs('normalize-rows.js', 'generic');

const measures = {};
let rowCount;
for (const side of ['before', 'after']) {
  const dist = resolve(flags[side]);
  const lib = await import(`${dist}/index.js`);
  const { createRowNormalizer } = await import(`${dist}/extract/row-normalizer.js`);
  const { valuesOfCells } = await import(`${dist}/readers/header-row.js`);
  const pipeline = await lib.loadPipeline(flags.pipeline);
  const source = await lib.openSource(path, pipeline.dialect, {});
  const rows = [];
  for await (const item of source.items) if (item.kind === 'row') rows.push(item);
  rowCount ??= rows.length;
  if (rows.length !== rowCount) throw new Error(`${side} read ${rows.length} rows, not ${rowCount}`);
  const header = source.header;
  const mapper = lib.createRowMapper(pipeline, header, source.info.path);
  const handed = rows.map((row) => ({
    cells: row.cells,
    get values() {
      return valuesOfCells(header, row.cells);
    },
  }));
  const normalize = createRowNormalizer({
    pipeline,
    header,
    file: source.info.path,
    input: 0,
    strict: false,
  });
  measures[`map ${side}`] = () => handed.forEach((row) => mapper.map(row));
  measures[`map+normalize+serialize ${side}`] = () => rows.forEach((row) => normalize(row));
}

// Microseconds a row: the passes' milliseconds over the rows, times 1,000.
const { taken: ms } = await alternatePasses(measures, Number(flags.repeat));
const taken = Object.fromEntries(
  Object.entries(ms).map(([name, passes]) => [name, passes.map((m) => (m * 1000) / rowCount)]),
);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
console.log(
  `${rowCount} rows of ${path}, pipeline ${flags.pipeline}, ${flags.repeat} passes each, CPU us a row`,
);
for (const stage of ['map', 'map+normalize+serialize']) {
  const before = taken[`${stage} before`];
  const after = taken[`${stage} after`];
  const ratios = before.map((b, i) => after[i] / b);
  console.log(
    `${stage.padEnd(24)} before ${Math.min(...before).toFixed(2)} (median ${median(before).toFixed(2)})` +
      `  after ${Math.min(...after).toFixed(2)} (median ${median(after).toFixed(2)})` +
      `  after/before median of passes ${median(ratios).toFixed(3)}`,
  );
}
