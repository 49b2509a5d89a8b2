import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from '../../../src/state/index.js';

describe('contentHash', () => {
  it('ignores key order at every depth', () => {
    const a = {
      first_name: 'Ada',
      contact_emails: [{ email: 'a@x.org', ranking: 1 }],
      job: { title: 'x', org: 'y' },
    };
    const b = {
      job: { org: 'y', title: 'x' },
      contact_emails: [{ ranking: 1, email: 'a@x.org' }],
      first_name: 'Ada',
    };
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('changes when a value, an array order or a type changes', () => {
    const base = contentHash({ emails: ['a@x.org', 'b@x.org'], n: 1 });
    expect(contentHash({ emails: ['b@x.org', 'a@x.org'], n: 1 })).not.toBe(base);
    expect(contentHash({ emails: ['a@x.org', 'b@x.org'], n: 2 })).not.toBe(base);
    expect(contentHash({ emails: ['a@x.org', 'b@x.org'], n: '1' })).not.toBe(base);
  });

  it('hashes a value as the JSON it would be sent as', () => {
    // undefined members are not sent, so they must not change the hash
    expect(contentHash({ a: 1, b: undefined })).toBe(contentHash({ a: 1 }));
    expect(canonicalJson({ b: [1, undefined, Number.NaN], a: new Date('2024-01-02T03:04:05.000Z') })).toBe(
      '{"a":"2024-01-02T03:04:05.000Z","b":[1,null,null]}',
    );
    expect(canonicalJson({ z: 'é"\n', y: null })).toBe(JSON.stringify({ y: null, z: 'é"\n' }));
  });

  it('refuses values that are not JSON', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => contentHash(circular)).toThrow(/circular/);
    expect(() => contentHash({ n: 10n })).toThrow(/bigint/);
  });

  it('allows the same object twice when it is not circular', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
