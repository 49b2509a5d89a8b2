/**
 * What a user writes first: one POST per contact, one at a time. With `maxSeconds`, it stops
 * there: one request at a time has a steady rate, so the rate over that time is its rate.
 */
import { Pool } from 'undici';
import { args, report } from './common.js';
import { prebuild } from './prebuild.js';

const { file, url, apiKey, maxSeconds = Infinity } = args();
const writes = await prebuild({ file, url, apiKey });
const pool = new Pool(url, { connections: 1 });
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
let failed = 0;
let sent = 0;
const started = performance.now();
for (const write of writes) {
  if (performance.now() - started > maxSeconds * 1000) break;
  sent++;
  const response = await pool.request({
    path: '/v1/contacts/',
    method: 'POST',
    headers,
    body: JSON.stringify({ contacts: [write] }),
  });
  await response.body.dump();
  if (response.statusCode !== 200) failed++;
}
const seconds = (performance.now() - started) / 1000;
await pool.close();
report({ rows: sent, failed, seconds, rowsPerSecond: sent / seconds });
