import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  resolveApiKey,
  type RetryEvent,
  type ServiceClient,
} from '../../../src/client/index.js';
import { KEY_A, rejectionOf, startHarness, type Harness } from './harness.js';

/**
 * The API key never shows in an error's message, stack, inspection or JSON, whatever failed:
 * refused keys, bad bodies, missing ids, oversize bodies, timeouts, aborts, a dead target.
 */
const everyRendering = (value: unknown): string => {
  const parts = [inspect(value, { depth: 8, showHidden: true }), JSON.stringify(value) ?? ''];
  if (value instanceof Error) parts.push(value.message, String(value.stack), String(value));
  return parts.join('\n');
};

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({ latencyMs: 0 }, { retries: 1 });
  dir = await mkdtemp(path.join(tmpdir(), 'secrecy-'));
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the API key in failures', () => {
  it('appears in no error, retry event or client rendering', async () => {
    const wrongKey = 'contract-key-leaky-1234567890ab';
    const failures: unknown[] = [];
    const events: RetryEvent[] = [];
    const onRetry = (e: RetryEvent) => events.push(e);
    const clients: ServiceClient[] = [];
    const client = (apiKey: string) => {
      const c = createClient({ baseUrl: h.service.url, apiKey, retries: 1, minRetryDelayMs: 1, onRetry });
      clients.push(c);
      return c;
    };

    const a = client(KEY_A);
    failures.push(await rejectionOf(client(wrongKey).searchContacts({ fullName: wrongKey })));
    failures.push(await rejectionOf(a.updateContact(KEY_A, { job_title: KEY_A })));
    failures.push(
      await rejectionOf(a.createContacts([{ website: `https://x.example/${KEY_A}`, birthday_year: 1 }])),
    );
    failures.push(
      await rejectionOf(a.updateContact('6f1f5a2e-8c1b-4d5e-9f00-123456789abc', { job_title: 'x' })),
    );
    failures.push(
      await rejectionOf(
        a.updateContact('6f1f5a2e-8c1b-4d5e-9f00-123456789abc', { description: 'x'.repeat(6 * 1024 * 1024) }),
      ),
    );
    failures.push(
      await rejectionOf(a.legacyUpdateContact(KEY_A, { changes: { website: KEY_A.repeat(200) } })),
    );

    const slow = await startHarness({ latencyMs: 500 });
    try {
      const timingOut = createClient({
        baseUrl: slow.service.url,
        apiKey: KEY_A,
        timeoutMs: 50,
        retries: 1,
        minRetryDelayMs: 1,
        onRetry,
      });
      clients.push(timingOut);
      failures.push(await rejectionOf(timingOut.globalSearch({ searchQuery: KEY_A })));
      const controller = new AbortController();
      const aborting = rejectionOf(slow.client.searchContacts({}, { signal: controller.signal }));
      setTimeout(() => controller.abort(new Error(`stop ${KEY_A}`)), 20);
      failures.push(await aborting);
    } finally {
      await slow.close();
    }

    const gone = await startHarness();
    const deadUrl = gone.service.url;
    await gone.close();
    const dead = createClient({ baseUrl: deadUrl, apiKey: KEY_A, retries: 1, minRetryDelayMs: 1, onRetry });
    clients.push(dead);
    failures.push(await rejectionOf(dead.createContacts([{ full_name: 'Nobody' }])));

    const codes = failures.map((f) => (f as { code?: string }).code);
    expect(codes).toEqual([
      'unauthorized',
      'invalid_path',
      'invalid_body',
      'not_found',
      'payload_too_large',
      'invalid_path',
      'request_timeout',
      'aborted',
      'target_unreachable',
    ]);
    expect(events.length).toBeGreaterThanOrEqual(2);

    for (const failure of failures) {
      const text = everyRendering(failure);
      expect(text).not.toContain(KEY_A);
      expect(text).not.toContain(wrongKey);
    }
    for (const event of events) expect(everyRendering(event)).not.toContain(KEY_A);
    for (const c of clients) {
      expect(everyRendering(c)).not.toContain(KEY_A);
      await c.close();
    }
  });

  it('appears in no API key resolution error', async () => {
    const secret = 'sk live with spaces 0123456789';
    const file = path.join(dir, 'key.txt');
    await writeFile(file, `${secret}\n`);
    const fromFile = await rejectionOf(resolveApiKey({ file, env: {} }));
    const fromEnv = await rejectionOf(resolveApiKey({ env: { CONTACT_IMPORT_API_KEY: secret } }));
    for (const error of [fromFile, fromEnv]) {
      const text = everyRendering(error);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('0123456789');
    }
  });
});
