import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../src/server/index.js';
import { caller, startTestService } from '../contract/server/http.js';

/**
 * The one cross-user path the isolation tests of test/contract/server/ do not cover:
 * a replayed Idempotency-Key. Another user sending the same key and body must get a create of
 * their own, never the first user's stored answer (which would hand over their ids).
 */
let service: LocalService;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  service = await startTestService({ apiKeys: ['idem-user-a-0001', 'idem-user-b-0002'] });
  call = caller(service);
});
afterAll(() => service.close());

describe('Idempotency-Key replay across users', () => {
  it.each([
    [
      '/v1/contacts/',
      { contacts: [{ full_name: 'Alice Private', contact_emails: [{ email: 'alice@private.test' }] }] },
    ],
    ['/v1/groups/', { group: { name: 'Private group' } }],
    ['/v1/custom-fields/', { custom_field: { name: 'Private field' } }],
    ['/v1/reminders/', { reminder: { text: 'private', due_at_date: '2030-01-01T00:00:00Z' } }],
  ])('POST %s with the same key and body creates separately per user', async (path, body) => {
    const headers = { 'idempotency-key': `shared-${path}` };
    const a = await call('POST', path, { key: 'idem-user-a-0001', body, headers });
    const aAgain = await call('POST', path, { key: 'idem-user-a-0001', body, headers });
    const b = await call('POST', path, { key: 'idem-user-b-0002', body, headers });
    expect([a.status, aAgain.status, b.status]).toEqual([200, 200, 200]);
    expect(aAgain.headers['idempotent-replayed']).toBe('true');
    expect(aAgain.text).toBe(a.text);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const idOf = (text: string) => text.match(/"id":"([0-9a-f-]{36})"/)![1];
    expect(idOf(b.text)).not.toBe(idOf(a.text));
  });
});
