import { expect, it } from 'vitest';
import { serveKeys, serveOptions, type ServeArgs } from '../../../src/cli/commands/serve.js';
import { startLocalService } from '../../../src/server/index.js';
import { caller } from './http.js';

const args = (extra: Partial<ServeArgs> = {}): ServeArgs => ({
  host: '127.0.0.1',
  port: 0,
  db: ':memory:',
  ...extra,
});

it('takes keys from repeated --api-key, else from CONTACT_IMPORT_SERVE_KEYS', () => {
  const env = { CONTACT_IMPORT_SERVE_KEYS: ' env-key-0001 ,env-key-0002,, ' };
  expect(serveKeys({ 'api-key': ['flag-key-0001', 'flag-key-0002'] }, env)).toEqual([
    'flag-key-0001',
    'flag-key-0002',
  ]);
  expect(serveKeys({}, env)).toEqual(['env-key-0001', 'env-key-0002']);
  expect(serveKeys({}, {})).toEqual([]);
});

it('maps every flag to the service options, and those options start a working service', async () => {
  const options = serveOptions(
    args({
      'api-key': ['flag-key-0001'],
      'max-bulk': 3,
      'rate-limit': 100,
      'fail-rate': 0,
      'reset-rate': 0,
      'cut-rate': 0,
      'slow-rate': 0,
      'slow-ms': 50,
      latency: 1,
      seed: 9,
      'body-timeout-ms': 1000,
      idempotency: false,
      'rate-limit-headers': false,
      'legacy-auth-header': 'X-Legacy-Key',
    }),
    {},
  );
  expect(options).toEqual({
    host: '127.0.0.1',
    port: 0,
    db: ':memory:',
    apiKeys: ['flag-key-0001'],
    maxBulk: 3,
    rateLimit: 100,
    failRate: 0,
    resetRate: 0,
    cutRate: 0,
    slowRate: 0,
    slowMs: 50,
    latencyMs: 1,
    seed: 9,
    bodyTimeoutMs: 1000,
    idempotency: false,
    rateLimitHeaders: false,
    legacyAuthHeader: 'X-Legacy-Key',
  });
  const service = await startLocalService(options);
  try {
    const call = caller(service);
    const tooMany = await call('POST', '/v1/contacts/', {
      body: { contacts: [{}, {}, {}, {}] },
      key: 'flag-key-0001',
    });
    expect(tooMany.status).toBe(413);
  } finally {
    await service.close();
  }
});

it('refuses invalid options with config_invalid before binding', async () => {
  await expect(startLocalService({ port: 0, failRate: 2 })).rejects.toMatchObject({ code: 'config_invalid' });
  await expect(startLocalService({ port: 0, apiKeys: ['has space key'] })).rejects.toMatchObject({
    code: 'config_invalid',
  });
  await expect(startLocalService({ port: 0, bodyTimeoutMs: 0 })).rejects.toMatchObject({
    code: 'config_invalid',
  });
});
