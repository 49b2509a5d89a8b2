import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/core/errors/index.js';
import { normalizeTarget, scopeId } from '../../../src/state/index.js';

describe('normalizeTarget', () => {
  it('gives one spelling per target', () => {
    expect(normalizeTarget(' HTTPS://API.Example.com:443/ ')).toBe('https://api.example.com');
    expect(normalizeTarget('https://api.example.com/v1/?x=1#y')).toBe('https://api.example.com/v1');
    expect(normalizeTarget('http://user:pw@127.0.0.1:8787')).toBe('http://127.0.0.1:8787');
    expect(normalizeTarget('LOCAL')).toBe('local');
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => normalizeTarget('example.com')).toThrow(ImportError);
    expect(() => normalizeTarget('ftp://example.com')).toThrow(/ftp:/);
  });
});

describe('scopeId', () => {
  const key = 'sk_live_7f3a9c2e1b8d4f60a5e7';

  it('is stable across spellings of one target', () => {
    expect(scopeId('https://api.example.com/', key)).toBe(scopeId('HTTPS://api.example.com:443', key));
    expect(scopeId('https://api.example.com', key)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('differs per user and per target', () => {
    const one = scopeId('https://api.example.com', key);
    expect(scopeId('https://api.example.com', `${key}x`)).not.toBe(one);
    expect(scopeId('https://other.example.com', key)).not.toBe(one);
    expect(scopeId('local', key)).not.toBe(one);
  });

  it('does not contain the key or its plain sha256', async () => {
    const { createHash } = await import('node:crypto');
    const id = scopeId('https://api.example.com', key);
    expect(id).not.toContain(key);
    expect(createHash('sha256').update(key).digest('hex')).not.toContain(id);
  });

  it('needs a key', () => {
    expect(() => scopeId('https://api.example.com', '')).toThrow(
      expect.objectContaining({ code: 'api_key_missing' }),
    );
  });
});
