/**
 * The floor of a run into a target that holds contacts: exact e-mail searches (E4 `exactMatch`),
 * nothing else, `concurrency` in flight over as many keep-alive connections. Each row's e-mails
 * (the generic format's `email`, `email_2`, `email_3`, lowercased) are searched in order until one
 * hits, as resolution does; stops after `count` searches.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { Pool } from 'undici';
import { args, report } from './common.js';

const { file, url, apiKey, concurrency = 4, count } = args();
const rows = [];
for await (const row of createReadStream(file).pipe(parse({ columns: true, relax_column_count: true }))) {
  const emails = [row.email, row.email_2, row.email_3]
    .map((e) => (e ?? '').trim().toLowerCase())
    .filter((e) => e.includes('@'));
  if (emails.length > 0) rows.push(emails);
}

const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
const headers = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
let next = 0;
let sent = 0;
let hits = 0;
let failed = 0;
const search = async (email) => {
  sent += 1;
  const query = new URLSearchParams({ searchQuery: email, exactMatch: 'true', archived: 'true', take: '1' });
  const response = await pool.request({ path: `/v1/search/contacts?${query}`, method: 'GET', headers });
  const body = await response.body.json();
  if (response.statusCode !== 200) failed += 1;
  return Array.isArray(body.data) && body.data.length > 0;
};
const started = performance.now();
const worker = async () => {
  while (next < rows.length && sent < count) {
    const emails = rows[next++];
    for (const email of emails) {
      if (sent >= count) return;
      if (await search(email)) {
        hits += 1;
        break;
      }
    }
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
await pool.close();
report({ rows: next, searches: sent, hits, failed, seconds, searchesPerSecond: sent / seconds });
