#!/usr/bin/env node
/**
 * Per-stage CPU cost of the dry run, in one thread: read every row of a file, then time the
 * mapping, the normalizing (map included) and the JSON text of the records over the rows in
 * memory, and phone parsing alone over every phone cell. Microseconds per row (per number for
 * phones), the best of `--repeat` passes. Needs `npm run build` first.
 *
 *   node bench/generate.js --format generic --rows 100000 --seed 1 --out /tmp/g.csv
 *   node bench/stages.js /tmp/g.csv [--pipeline generic] [--repeat 3]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pipeline: { type: 'string', default: 'generic' },
    repeat: { type: 'string', default: '3' },
  },
});
const dist = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { loadPipeline, openSource, createRowMapper, normalize } = await import(`${dist}/index.js`);
const { createRowNormalizer } = await import(`${dist}/run/parallel/row-normalizer.js`);

const path = positionals[0];
if (!path) {
  console.error('usage: node bench/stages.js <file.csv> [--pipeline generic] [--repeat 3]');
  process.exit(2);
}
const pipeline = await loadPipeline(flags.pipeline);
const source = await openSource(path, pipeline.dialect, {});
const rows = [];
for await (const item of source.items) if (item.kind === 'row') rows.push(item);

const best = (label, count, pass) => {
  let fastest = Infinity;
  for (let i = 0; i < Number(flags.repeat); i++) {
    const start = performance.now();
    pass();
    fastest = Math.min(fastest, performance.now() - start);
  }
  console.log(
    `${label.padEnd(28)} ${((fastest * 1000) / count).toFixed(1).padStart(7)} us  (${count} items)`,
  );
};

const mapper = createRowMapper(pipeline, source.header, source.info.path);
best('map', rows.length, () => rows.forEach((row) => mapper.map(row)));

const setup = { pipeline, header: source.header, file: source.info.path, input: 0, strict: false };
const normalizeRow = createRowNormalizer(setup);
best('map+normalize+serialize', rows.length, () => rows.forEach(normalizeRow));

const phones = rows.flatMap((row) => mapper.map(row).phones.map((phone) => phone.value));
best('phone', phones.length, () =>
  phones.forEach((phone) => normalize.normalizePhone(phone, pipeline.region)),
);
