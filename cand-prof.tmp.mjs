import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { findCandidates } from './dist/candidates/index.js';
const rows = parse(readFileSync(process.argv[2], 'utf8'), { columns: true, relax_column_count: true });
const people = rows.map((r) => ({ firstName: r['First Name'], lastName: r['Last Name'], company: r['Organization Name'], jobTitle: r['Organization Title'], birthday: r['Birthday'], emails: [r['E-mail 1 - Value'], r['E-mail 2 - Value']].filter(Boolean), phones: [r['Phone 1 - Value'], r['Phone 2 - Value']].filter(Boolean).map(p => p.replace(/\D/g, '')) }));
const s = performance.now();
const res = findCandidates(people);
console.log(people.length, res.counts, (res.counts.compared / people.length).toFixed(1), 'pairs/person', Math.round(performance.now() - s), 'ms');
