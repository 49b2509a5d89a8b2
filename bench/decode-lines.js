#!/usr/bin/env node
/**
 * What deciding the encoding line by line costs a clean UTF-8 input, side by side with the whole-
 * file path it replaced (still the path of a declared `utf-8`, so the two are the same build).
 * Best of `--repeat` interleaved passes, printed as ratios. Needs `npm run build` first.
 *
 * - `decode`: the transcoder alone over the file's chunks in memory (line by line vs whole-file).
 * - `read`: the CSV reader over the file, every row built (detected vs declared utf-8).
 *
 *   node bench/generate.js --format generic --rows 200000 --seed 1 --out /tmp/b.csv
 *   node bench/decode-lines.js /tmp/b.csv [--repeat 5]
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createTranscoder } from '../dist/readers/decode.js';
import { openSource } from '../dist/readers/index.js';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { repeat: { type: 'string', default: '5' } },
});
const path = positionals[0];
if (!path) throw new Error('usage: node bench/decode-lines.js <file.csv> [--repeat n]');
const repeat = Number(flags.repeat);

const bytes = readFileSync(path);
const CHUNK = 64 * 1024;
const decode = (lineWise) => {
  const transcoder = createTranscoder('utf-8', lineWise ? { label: 'utf-8' } : undefined);
  let out = 0;
  for (let at = 0; at < bytes.length; at += CHUNK)
    out += transcoder.write(bytes.subarray(at, at + CHUNK)).length;
  return out + transcoder.end().length;
};
const read = async (dialect) => {
  const source = await openSource(path, { format: 'csv', ...dialect });
  let rows = 0;
  for await (const item of source.items) if (item.kind === 'row' && item.values) rows++;
  return rows;
};

const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
const best = { decodeOld: Infinity, decodeNew: Infinity, readOld: Infinity, readNew: Infinity };
for (let pass = 0; pass < repeat; pass++) {
  best.decodeOld = Math.min(best.decodeOld, await time(() => decode(false)));
  best.decodeNew = Math.min(best.decodeNew, await time(() => decode(true)));
  best.readOld = Math.min(best.readOld, await time(() => read({ encoding: 'utf-8' })));
  best.readNew = Math.min(best.readNew, await time(() => read({})));
}
const mb = bytes.length / 1024 / 1024;
console.log(`${path}: ${mb.toFixed(1)} MB, best of ${repeat}`);
console.log(
  `decode alone: line by line / whole file = ${(best.decodeNew / best.decodeOld).toFixed(2)}` +
    ` (${best.decodeNew.toFixed(0)} ms vs ${best.decodeOld.toFixed(0)} ms)`,
);
console.log(
  `CSV read:     detected / declared utf-8  = ${(best.readNew / best.readOld).toFixed(2)}` +
    ` (${best.readNew.toFixed(0)} ms vs ${best.readOld.toFixed(0)} ms)`,
);
