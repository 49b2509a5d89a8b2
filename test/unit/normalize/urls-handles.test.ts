import { describe, expect, it } from 'vitest';
import { normalizeHandle } from '../../../src/normalize/handles.js';
import { normalizeWebsite } from '../../../src/normalize/urls.js';

describe('normalizeWebsite', () => {
  const valid: [string, string][] = [
    ['example.com', 'https://example.com'],
    [' www.example.com/about?x=1 ', 'https://www.example.com/about?x=1'],
    ['http://example.com/', 'http://example.com/'],
    ['HTTPS://Example.com', 'HTTPS://Example.com'],
    ['//cdn.example.com/x', 'https://cdn.example.com/x'],
    ['example.com:8080/path', 'https://example.com:8080/path'],
    ['bücher.de', 'https://bücher.de'],
    ['http://192.168.1.10/', 'http://192.168.1.10/'],
  ];
  for (const [value, expected] of valid) {
    it(`${JSON.stringify(value)} -> ${expected}`, () => {
      expect(normalizeWebsite(value)).toEqual({ ok: true, value: expected });
    });
  }

  for (const value of [
    '',
    'N/A',
    'none',
    'localhost',
    'not a url',
    'ftp://example.com',
    'javascript:alert(1)',
    'mailto:a@example.com',
    'exa mple.com',
    'https://',
  ]) {
    it(`refuses ${JSON.stringify(value)}`, () => {
      expect(normalizeWebsite(value)).toMatchObject({ ok: false, code: 'invalid_website' });
    });
  }

  it('accepts 2083 characters and drops one more with value_too_long', () => {
    const base = 'https://example.com/';
    expect(normalizeWebsite(base + 'a'.repeat(2083 - base.length)).ok).toBe(true);
    const result = normalizeWebsite(base + 'a'.repeat(2084 - base.length));
    expect(result).toMatchObject({ ok: false, code: 'value_too_long' });
    expect(!result.ok && result.message).toContain('2084 characters');
  });

  it('counts the added scheme against the limit', () => {
    const bare = 'example.com/' + 'a'.repeat(2083 - 'example.com/'.length);
    expect(normalizeWebsite(bare)).toMatchObject({ ok: false, code: 'value_too_long' });
  });
});

describe('normalizeHandle', () => {
  it('keeps a bare handle and drops a leading @', () => {
    expect(normalizeHandle('microblog', 'jdoe')).toEqual({ ok: true, value: 'jdoe' });
    expect(normalizeHandle('microblog', ' @jdoe ')).toEqual({ ok: true, value: 'jdoe' });
    expect(normalizeHandle('chatapp', '+15551234567')).toEqual({ ok: true, value: '+15551234567' });
    expect(normalizeHandle('photonet', 'jane.doe_92')).toEqual({ ok: true, value: 'jane.doe_92' });
    expect(normalizeHandle('socialnet', 'zoë')).toEqual({ ok: true, value: 'zoë' });
  });

  it('keeps a profile URL as a URL', () => {
    expect(normalizeHandle('worknet', 'https://worknet.example/in/jdoe')).toEqual({
      ok: true,
      value: 'https://worknet.example/in/jdoe',
    });
    expect(normalizeHandle('worknet', 'worknet.example/in/jdoe')).toEqual({
      ok: true,
      value: 'https://worknet.example/in/jdoe',
    });
  });

  for (const value of [
    '',
    '@',
    'john doe',
    'jdoe\u0007',
    'a@b',
    'x'.repeat(101),
    'https://nodot/jdoe',
    '<script>',
  ]) {
    it(`refuses ${JSON.stringify(value.slice(0, 20))}`, () => {
      const result = normalizeHandle('microblog', value);
      expect(result).toMatchObject({ ok: false, code: 'invalid_handle' });
      expect(!result.ok && result.message).toContain('microblog');
    });
  }
});
