import { createHash } from 'node:crypto';
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

it('replays a key stored by an earlier version, which fingerprinted the body serialized again', async () => {
  const db = path.join(dir, 'upgrade.sqlite');
  const key = 'persistent-key-2';
  const body = {
    contacts: [{ full_name: 'Across Upgrade', contact_emails: [{ email: 'across@upgrade.test' }] }],
  };
  const spaced = JSON.stringify(body, null, 2);
  const headers = { 'idempotency-key': 'upgrade-1' };
  const first = await startTestService({ db, apiKeys: [key] });
  const created = await caller(first)('POST', '/v1/contacts/', { raw: spaced, headers });
  expect(created.status).toBe(200);
  await first.close();

  // This version fingerprints the bytes as they came; the one before 2026-11-27 stored the hash of
  // the route and JSON.stringify of the parsed body. The row is set back to what that one stored.
  const bytes = createHash('sha256').update(`POST /v1/contacts/\n${spaced}`).digest('hex');
  const earlier = createHash('sha256')
    .update(`POST /v1/contacts/\n${JSON.stringify(body)}`)
    .digest('hex');
  const raw = new Database(db);
  try {
    const stored = raw.prepare('SELECT request_hash FROM idempotency_keys WHERE key = ?').pluck();
    expect(stored.get('upgrade-1')).toBe(bytes);
    raw.prepare('UPDATE idempotency_keys SET request_hash = ? WHERE key = ?').run(earlier, 'upgrade-1');
  } finally {
    raw.close();
  }

  const second = await startTestService({ db, apiKeys: [key] });
  const call = caller(second);
  const replay = await call('POST', '/v1/contacts/', { raw: spaced, headers });
  expect(replay.status).toBe(200);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.json).toEqual(created.json);
  // Other content under the same key is still another request.
  const changed = await call('POST', '/v1/contacts/', {
    body: { contacts: [{ full_name: 'Across Upgrade, Changed' }] },
    headers,
  });
  expect(changed.status).toBe(409);
  expect(changed.json.data.code).toBe('idempotency_conflict');
  expect((await call('GET', '/_local/contacts')).json.data.contacts).toHaveLength(1);
  await second.close();
});
