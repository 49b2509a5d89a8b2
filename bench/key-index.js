#!/usr/bin/env node
/**
 * The staging's hand-made hash table (src/package/key-index.ts) against a plain `Map` of key text
 * to sequence number, the same keys claimed in the same order (a share of them twice, as duplicate
 * records), passes alternated; CPU microseconds a claim (best of `--repeat`) and the heap each
 * holds once every key is in. `npm run build` first; `node --expose-gc` for the heap figures.
 *
 *   node --expose-gc bench/key-index.js [--keys 200000] [--repeat 5]
 */
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: { keys: { type: 'string', default: '200000' }, repeat: { type: 'string', default: '5' } },
});
const { KeyIndex } = await import(new URL('../dist/package/key-index.js', import.meta.url).pathname);
const count = Number(flags.keys);
// Identity keys as the staging makes them: a normalized e-mail, 3% of them again later.
const keys = Array.from({ length: count }, (_, i) => `e:person.${i}.${(i * 2654435761) % 1e9}@example.com`);
const claims = keys.concat(keys.filter((_, i) => i % 33 === 0));

const withIndex = () => {
  const index = new KeyIndex();
  let again = 0;
  for (let seq = 0; seq < claims.length; seq++) {
    if (index.claim(claims[seq], seq, (s) => claims[s]) !== undefined) again++;
  }
  return { again, held: index };
};
const withMap = (copy = false) => {
  const map = new Map();
  let again = 0;
  for (let seq = 0; seq < claims.length; seq++) {
    const key = claims[seq];
    if (map.has(key)) again++;
    // For the heap, the Map holds its own copy of each key: the staging's key strings would
    // otherwise die young (the index keeps none; they stay on disk).
    else map.set(copy ? key.slice(0, 1) + key.slice(1) : key, seq);
  }
  return { again, held: map };
};

const heapOf = (build) => {
  globalThis.gc?.();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const before = used();
  const { held } = build();
  globalThis.gc?.();
  const after = used();
  void held;
  return (after - before) / 1024 / 1024;
};
const best = { 'key-index': Infinity, Map: Infinity };
const sides = { 'key-index': withIndex, Map: withMap };
const agains = {};
for (let pass = 0; pass < Number(flags.repeat); pass++) {
  const order = pass % 2 ? ['Map', 'key-index'] : ['key-index', 'Map'];
  for (const name of order) {
    const started = process.cpuUsage();
    agains[name] = sides[name]().again;
    const used = process.cpuUsage(started);
    best[name] = Math.min(best[name], (used.user + used.system) / claims.length);
  }
}
const heap = { 'key-index': heapOf(withIndex), Map: heapOf(() => withMap(true)) };
for (const name of Object.keys(best)) {
  console.log(
    `${name.padEnd(10)} ${best[name].toFixed(3)} us a claim (best), ${heap[name].toFixed(1)} MB held, ${agains[name]} found again`,
  );
}
console.log(
  `Map / key-index: ${(best.Map / best['key-index']).toFixed(2)} time, ${(heap.Map / heap['key-index']).toFixed(2)} heap`,
);
