import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { caller, startTestService } from './http.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'contact-import-server-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('keeps data, users and idempotency keys in a file database across restarts', async () => {
  const db = path.join(dir, 'local.sqlite');
  const key = 'persistent-key-1';
  const first = await startTestService({ db, apiKeys: [key] });
  const call1 = caller(first);
  const headers = { 'idempotency-key': 'persist-1' };
  const created = await call1('POST', '/v1/contacts/', {
    body: { contacts: [{ full_name: 'Still Here', contact_emails: [{ email: 'still@here.test' }] }] },
    headers,
  });
  expect(created.status).toBe(200);
  await first.close();

  const second = await startTestService({ db, apiKeys: [key] });
  const call2 = caller(second);
  const found = await call2('GET', '/v1/search/contacts?searchQuery=still@here.test&exactMatch=true');
  expect(found.json.data.map((c: { id: string }) => c.id)).toEqual([created.json.data.contacts[0].id]);
  const replay = await call2('POST', '/v1/contacts/', {
    body: { contacts: [{ full_name: 'Still Here', contact_emails: [{ email: 'still@here.test' }] }] },
    headers,
  });
  expect(replay.json).toEqual(created.json);
  expect((await call2('GET', '/_local/contacts')).json.data.contacts).toHaveLength(1);
  // The generated user of a restart is a new user: it sees none of the first user's data.
  const stranger = second.addUser();
  expect((await call2('GET', '/_local/contacts', { key: stranger })).json.data.contacts).toEqual([]);
  await second.close();

  const raw = new Database(db, { readonly: true });
  try {
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const hashes = raw.prepare('SELECT key_hash FROM users').all() as { key_hash: string }[];
    expect(hashes.length).toBe(2);
    expect(JSON.stringify(hashes)).not.toContain(key);
  } finally {
    raw.close();
  }
});
