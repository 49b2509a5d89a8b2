#!/usr/bin/env node
/**
 * Per-stage CPU cost of the dry run, in one thread, against the libraries' own floor on the same
 * rows. Microseconds per row (per number for phones), the best of `--repeat` passes; the passes of
 * every measure alternate, so a busy neighbour slows both sides of a ratio alike. Needs
 * `npm run build` first.
 *
 * - `read`: our reader over the file (decode, dialect, csv-parse, rows with their line numbers).
 * - `map`, `map+normalize+serialize`: over the rows in memory, what a normalize worker does to a
 *   row (row-normalizer.ts: the pipeline's mapping, the record normalizer, the staged text).
 * - floor: a bare csv-parse pass over the same file (columns on, as bench/tasks/bare-parse.js),
 *   plus libphonenumber-js (`max` metadata, what we use) `parsePhoneNumberWithError`, `isValid`
 *   and `formatInternational` of the same phone cells, per row.
 * - ratios: map+normalize+serialize over the floor, and read+map+normalize+serialize over it
 *   (issue 10: <= 1.6).
 *
 *   node bench/generate.js --format address-book-csv --rows 50000 --seed 1 --out /tmp/b.csv
 *   node bench/stages.js /tmp/b.csv --pipeline address-book-csv [--repeat 5] [--json]
 */
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { parsePhoneNumberWithError } from 'libphonenumber-js/max';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pipeline: { type: 'string', default: 'generic' },
    repeat: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const dist = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { loadPipeline, openSource, createRowMapper } = await import(`${dist}/index.js`);
const { createRowNormalizer } = await import(`${dist}/extract/row-normalizer.js`);

const path = positionals[0];
if (!path) {
  console.error('usage: node bench/stages.js <file.csv> [--pipeline generic] [--repeat 5] [--json]');
  process.exit(2);
}
const pipeline = await loadPipeline(flags.pipeline);

const readRows = async () => {
  const source = await openSource(path, pipeline.dialect, {});
  const rows = [];
  for await (const item of source.items) if (item.kind === 'row') rows.push(item);
  return { source, rows };
};
const { source, rows } = await readRows();
const mapper = createRowMapper(pipeline, source.header, source.info.path);
const setup = { pipeline, header: source.header, file: source.info.path, input: 0, strict: false };
const normalizeRow = createRowNormalizer(setup);
const region = pipeline.region;
const phones = rows.flatMap((row) => mapper.map(row).phones.map((phone) => phone.value));

const bareParse = async () => {
  let count = 0;
  const parser = createReadStream(path).pipe(parse({ columns: true, relax_column_count: true }));
  for await (const record of parser) if (record) count++;
  return count;
};
const phoneLibrary = () => {
  let valid = 0;
  for (const phone of phones) {
    try {
      const parsed = parsePhoneNumberWithError(phone, { defaultCountry: region?.toUpperCase() });
      if (parsed.isValid()) {
        parsed.formatInternational();
        valid++;
      }
    } catch {
      // not a number: the library's answer, as for us
    }
  }
  return valid;
};

/** Each measure: its per-pass times (ms); the passes of all measures interleave. */
const measures = {
  read: async () => (await readRows()).rows.length,
  map: () => rows.forEach((row) => mapper.map(row)),
  'map+normalize+serialize': () => rows.forEach(normalizeRow),
  'csv-parse (bare)': bareParse,
  'phone library': phoneLibrary,
};
const times = Object.fromEntries(Object.keys(measures).map((name) => [name, []]));
const repeat = Number(flags.repeat);
for (let i = 0; i < repeat; i++) {
  for (const [name, pass] of Object.entries(measures)) {
    const start = performance.now();
    await pass();
    times[name].push(performance.now() - start);
  }
}

/** us per row: best pass, and the spread (best to worst). */
const perRow = (name, count = rows.length) => {
  const us = times[name].map((ms) => (ms * 1000) / count);
  return { best: Math.min(...us), worst: Math.max(...us) };
};
const stage = {
  read: perRow('read'),
  map: perRow('map'),
  mapNormalizeSerialize: perRow('map+normalize+serialize'),
  bareParse: perRow('csv-parse (bare)'),
  phoneLibrary: perRow('phone library'),
  phonePerNumber: perRow('phone library', phones.length),
};
const floor = stage.bareParse.best + stage.phoneLibrary.best;
/**
 * A ratio: our best pass over the floor's best passes; its spread, the same ratio within each
 * repetition (passes measured back to back), lowest and highest.
 */
const ratios = (names) => {
  const ours = names.reduce((sum, name) => sum + Math.min(...times[name]), 0);
  const values = times.read.map((_, i) => {
    const oursThen = names.reduce((sum, name) => sum + times[name][i], 0);
    return oursThen / (times['csv-parse (bare)'][i] + times['phone library'][i]);
  });
  const floorMs = Math.min(...times['csv-parse (bare)']) + Math.min(...times['phone library']);
  return { best: ours / floorMs, low: Math.min(...values), high: Math.max(...values) };
};
const ratio = {
  mapNormalizeSerialize: ratios(['map+normalize+serialize']),
  readMapNormalizeSerialize: ratios(['read', 'map+normalize+serialize']),
};

const us = ({ best, worst }) => `${best.toFixed(1).padStart(6)} us  (worst ${worst.toFixed(1)})`;
if (flags.json) {
  console.log(JSON.stringify({ rows: rows.length, phones: phones.length, repeat, stage, floor, ratio }));
} else {
  console.log(`${rows.length} rows, ${phones.length} phone cells, best of ${repeat} interleaved passes`);
  console.log(`read (our reader)            ${us(stage.read)}`);
  console.log(`map                          ${us(stage.map)}`);
  console.log(`map+normalize+serialize      ${us(stage.mapNormalizeSerialize)}`);
  console.log(`floor: csv-parse             ${us(stage.bareParse)}`);
  console.log(
    `floor: phone library per row ${us(stage.phoneLibrary)}  (${stage.phonePerNumber.best.toFixed(1)} us a number)`,
  );
  console.log(`floor                        ${floor.toFixed(1).padStart(6)} us`);
  const show = ({ best, low, high }) =>
    `${best.toFixed(2)}  (per repetition ${low.toFixed(2)} to ${high.toFixed(2)})`;
  console.log(`map+normalize+serialize / floor        ${show(ratio.mapNormalizeSerialize)}  (target <= 1.6)`);
  console.log(`read+map+normalize+serialize / floor   ${show(ratio.readMapNormalizeSerialize)}`);
}
