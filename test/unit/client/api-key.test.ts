import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ENV, resolveApiKey } from '../../../src/client/index.js';
import { ImportError } from '../../../src/core/errors/index.js';
import { rejectionAs } from '../../support/rejection.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'api-key-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function keyFile(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

const failure = (promise: Promise<unknown>) => rejectionAs(promise, ImportError);

describe('resolveApiKey', () => {
  it('reads the key from the environment, trimmed', async () => {
    await expect(resolveApiKey({ env: { [API_KEY_ENV]: '  env-key-123 \n' } })).resolves.toBe('env-key-123');
  });

  it('reads the first line of the key file, without BOM or CR', async () => {
    const file = await keyFile('crlf.txt', '\uFEFFfile-key-456\r\nsecond line\r\n');
    await expect(resolveApiKey({ file, env: {} })).resolves.toBe('file-key-456');
  });

  it('prefers an explicit key file over the environment', async () => {
    const file = await keyFile('explicit.txt', 'from-file\n');
    await expect(resolveApiKey({ file, env: { [API_KEY_ENV]: 'from-env' } })).resolves.toBe('from-file');
  });

  it('names the variable when neither source has a key', async () => {
    const error = await failure(resolveApiKey({ env: {} }));
    expect(error.code).toBe('api_key_missing');
    expect(error.message).toContain(API_KEY_ENV);
    expect(error.message).toContain('--api-key-file');
  });

  it('names the file when it cannot be read or its first line is empty', async () => {
    const missing = path.join(dir, 'nope.txt');
    const unreadable = await failure(
      resolveApiKey({ file: missing, env: { [API_KEY_ENV]: 'fallback-not-used' } }),
    );
    expect(unreadable.code).toBe('api_key_missing');
    expect(unreadable.message).toContain(missing);
    expect(unreadable.message).toContain('ENOENT');

    const empty = await keyFile('empty.txt', '\n\nkey-on-line-3\n');
    const blank = await failure(resolveApiKey({ file: empty, env: {} }));
    expect(blank.code).toBe('api_key_missing');
    expect(blank.message).toContain(empty);
    expect(blank.message).not.toContain('key-on-line-3');
  });

  it('refuses a key that cannot go into a header without echoing it', async () => {
    const secret = 'se cr\u00e9t-value';
    const error = await failure(resolveApiKey({ env: { [API_KEY_ENV]: secret } }));
    expect(error.code).toBe('config_invalid');
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('cr\u00e9t');
  });
});
