/**
 * What any client must have the service do in a run into a target that holds contacts: the same
 * exact e-mail searches as bare-searches.js (each record's e-mails in order until one hits), and
 * then each record written, a hit as an E1 element with the contact's id and a miss in a create,
 * 100 a request, `concurrency` requests in flight in all. Nothing else: the writes are built before
 * the clock starts (prebuild.js), no ledger, no retries. On loopback this is the service's own
 * floor for the `half` run: the run cannot end sooner than its target can answer it.
 */
import { Pool } from 'undici';
import { args, report } from './common.js';
import { prebuild } from './prebuild.js';

const { file, url, apiKey, concurrency = 4, chunkSize = 100 } = args();
const writes = await prebuild({ file, url, apiKey });
const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
let next = 0;
let searches = 0;
let hits = 0;
let requests = 0;
let failed = 0;
const updates = [];
const creates = [];

const request = async (options) => {
  requests += 1;
  const response = await pool.request({ headers, ...options });
  const body = await response.body.json();
  if (response.statusCode !== 200) failed += 1;
  return body;
};
const found = async (email) => {
  searches += 1;
  const query = new URLSearchParams({ searchQuery: email, exactMatch: 'true', archived: 'true', take: '1' });
  const body = await request({ path: `/v1/search/contacts?${query}`, method: 'GET' });
  return Array.isArray(body.data) && body.data.length > 0 ? body.data[0].id : undefined;
};
const sendUpdates = (elements) =>
  request({ path: '/v1/contacts/', method: 'PUT', body: JSON.stringify(elements) });
const sendCreates = (contacts) =>
  request({ path: '/v1/contacts/', method: 'POST', body: JSON.stringify({ contacts }) });

const started = performance.now();
const worker = async () => {
  while (next < writes.length) {
    const write = writes[next++];
    let id;
    for (const { email } of (write.contact_emails ?? []).slice(0, 5)) {
      id = await found(email);
      if (id !== undefined) break;
    }
    if (id !== undefined) {
      hits += 1;
      updates.push({ contactId: id, data: write });
      if (updates.length >= chunkSize) await sendUpdates(updates.splice(0, chunkSize));
    } else {
      creates.push(write);
      if (creates.length >= chunkSize) await sendCreates(creates.splice(0, chunkSize));
    }
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
if (updates.length > 0) await sendUpdates(updates.splice(0));
if (creates.length > 0) await sendCreates(creates.splice(0));
const seconds = (performance.now() - started) / 1000;
await pool.close();
report({ records: writes.length, searches, hits, requests, failed, seconds });
