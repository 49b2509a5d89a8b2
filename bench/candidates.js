#!/usr/bin/env node
/**
 * How well the duplicate-candidates matcher finds one person's records, on labelled sets:
 * precision, recall and F1 of the `likely` band, recall of `likely` + `possible`, beside the
 * exact first + last name baseline. Needs a build (dist/candidates/).
 *
 *   node bench/candidates.js
 */
import { findCandidates } from '../dist/candidates/index.js';
import { exactNamePairs, fake1000, febrl, score, truePairs } from './people-sets.js';
import { twoExports } from './two-exports.js';

const SETS = [
  ['dataset1 (with soc_sec_id)', () => febrl('dataset1', { idNumber: true })],
  ['dataset1', () => febrl('dataset1')],
  ['dataset2', () => febrl('dataset2')],
  ['dataset3 (with soc_sec_id)', () => febrl('dataset3', { idNumber: true })],
  ['dataset3', () => febrl('dataset3')],
  ['dataset3 (no date of birth)', () => febrl('dataset3', { birthDate: false })],
  ['dataset3 (names + birth date)', () => febrl('dataset3', { address: false })],
  ['fake_1000', () => fake1000()],
  ['two exports (seed 1)', () => twoExports({ seed: 1 })],
  ['two exports (seed 2)', () => twoExports({ seed: 2 })],
  ['two exports, narrow names (seed 1)', () => twoExports({ seed: 1, names: 'narrow' })],
  ['two exports, narrow names (seed 2)', () => twoExports({ seed: 2, names: 'narrow' })],
];

const pct = (x) => x.toFixed(3);
const rows = [];
for (const [name, load] of SETS) {
  if (process.argv[2] && !name.includes(process.argv[2])) continue;
  const records = load();
  const people = records.map((r) => r.person);
  const truth = truePairs(records);
  const started = performance.now();
  const { pairs, counts } = findCandidates(people);
  const ms = performance.now() - started;
  const likely = score(
    pairs.filter((p) => p.band === 'likely'),
    truth,
  );
  const both = score(pairs, truth);
  const baseline = score(exactNamePairs(people), truth);
  rows.push({
    set: name,
    records: records.length,
    'true pairs': truth.size,
    'likely P': pct(likely.precision),
    'likely R': pct(likely.recall),
    'likely F1': pct(likely.f1),
    '+possible P': pct(both.precision),
    '+possible R': pct(both.recall),
    '+possible F1': pct(both.f1),
    'exact-name P': pct(baseline.precision),
    'exact-name R': pct(baseline.recall),
    'exact-name F1': pct(baseline.f1),
    'pairs/record': (counts.compared / records.length).toFixed(1),
    ms: Math.round(ms),
  });
}
console.table(rows);
