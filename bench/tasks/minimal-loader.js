/**
 * The service's capacity as a loader sees it: pre-built chunks sent straight to POST /v1/contacts/
 * with a fixed number in flight, and nothing else (no reading, no ledger, no retries).
 */
import { Pool } from 'undici';
import { args, report } from './common.js';
import { prebuild } from './prebuild.js';

const { file, url, apiKey, chunkSize = 100, concurrency = 4 } = args();
const writes = await prebuild({ file, url, apiKey });
const bodies = [];
for (let i = 0; i < writes.length; i += chunkSize)
  bodies.push(JSON.stringify({ contacts: writes.slice(i, i + chunkSize) }));

const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
let next = 0;
let failed = 0;
const started = performance.now();
const worker = async () => {
  while (next < bodies.length) {
    const body = bodies[next++];
    const response = await pool.request({ path: '/v1/contacts/', method: 'POST', headers, body });
    await response.body.dump();
    if (response.statusCode !== 200) failed++;
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
await pool.close();
report({
  rows: writes.length,
  requests: bodies.length,
  failed,
  seconds,
  rowsPerSecond: writes.length / seconds,
});
