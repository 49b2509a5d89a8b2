#!/usr/bin/env node
/**
 * Issue 10.3: the load stage's cost per record of turning a staged record into what it hashes and
 * sends, before and after the write was serialized once. Both sides over the same staged records
 * (normalized from the file, then read back with JSON.parse as the load stage does), passes
 * alternating, best of `--repeat`. Needs `npm run build` first.
 *
 * - before: the write object, hashed as canonical JSON (sorted keys, in JS), then serialized again
 *   with JSON.stringify for the body.
 * - after: the write built in sorted key order (load/write-object.ts), serialized once, its text hashed.
 *
 *   node bench/generate.js --format address-book-csv --rows 50000 --seed 1 --out /tmp/b.csv
 *   node bench/write-text.js /tmp/b.csv --pipeline address-book-csv [--repeat 5]
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { pipeline: { type: 'string', default: 'generic' }, repeat: { type: 'string', default: '5' } },
});
const dist = process.env.BENCH_DIST ?? new URL('../dist', import.meta.url).pathname;
const { loadPipeline, openSource } = await import(`${dist}/index.js`);
const { createRowNormalizer } = await import(`${dist}/extract/row-normalizer.js`);
const { canonicalJson } = await import(`${dist}/state/index.js`);
const { toWrite, writeHash } = await import(`${dist}/load/write-object.js`);

const path = positionals[0];
if (!path) {
  console.error('usage: node bench/write-text.js <file.csv> [--pipeline generic] [--repeat 5]');
  process.exit(2);
}
const pipeline = await loadPipeline(flags.pipeline);
const source = await openSource(path, pipeline.dialect, {});
const rows = [];
for await (const item of source.items) if (item.kind === 'row') rows.push(item);
const setup = { pipeline, header: source.header, file: source.info.path, input: 0, strict: false };
const normalizeRow = createRowNormalizer(setup);
const staged = rows.map(normalizeRow).flatMap((o) => (o.ok ? [o.json] : []));
const records = staged.map((json) => JSON.parse(json));
const ids = { groups: new Map(), customFields: new Map() };
for (const record of records) {
  record.groups.forEach((name) => ids.groups.set(name, crypto.randomUUID()));
  record.customFields.forEach((f) => ids.customFields.set(f.name, crypto.randomUUID()));
}

/** The previous version: write object, canonical JSON hashed, JSON.stringify for the body. */
const before = (record) => {
  const write = { ...record.contact };
  const groups = record.groups.flatMap((name) => [{ group_id: ids.groups.get(name) }]);
  if (groups.length > 0) write.groups_contacts = groups;
  const values = record.customFields.map((f) => ({
    id: ids.customFields.get(f.name),
    type: f.fieldType,
    text_value: f.value,
  }));
  if (values.length > 0) write.custom_fields = values;
  const hash = createHash('sha256').update(canonicalJson(write)).digest('hex').slice(0, 32);
  return [hash, JSON.stringify(write)];
};
const after = (record) => {
  const { json } = toWrite(record, ids);
  return [writeHash(json), json];
};

// The same hashes both ways: an upgraded run finds the previous ledger's records unchanged.
const mismatched = records.filter((r) => before(r)[0] !== after(r)[0]).length;

const best = { before: Infinity, after: Infinity };
for (let pass = 0; pass < Number(flags.repeat); pass++) {
  for (const [name, fn] of [
    ['before', before],
    ['after', after],
  ]) {
    const start = performance.now();
    for (const record of records) fn(record);
    best[name] = Math.min(best[name], ((performance.now() - start) * 1000) / records.length);
  }
}
console.log(
  `${records.length} records: before ${best.before.toFixed(2)} us/record, after ${best.after.toFixed(2)} us/record, ` +
    `after/before ${(best.after / best.before).toFixed(2)}; hashes differing: ${mismatched}`,
);
