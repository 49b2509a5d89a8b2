import { describe, expect, it } from 'vitest';
import { redact, REDACTED } from '../../../src/client/index.js';

describe('redact', () => {
  it('replaces every occurrence of a secret', () => {
    const key = 'ck_live_9f8e7d';
    expect(redact(`Bearer ${key} and again ${key}.`, [key])).toBe(
      `Bearer ${REDACTED} and again ${REDACTED}.`,
    );
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    const out = redact('token=abc123xyz', ['abc', 'abc123xyz']);
    expect(out).toBe(`token=${REDACTED}`);
    expect(out).not.toContain('xyz');
  });

  it('ignores empty secrets and leaves text without secrets unchanged', () => {
    expect(redact('nothing to hide', ['', 'absent'])).toBe('nothing to hide');
  });

  it('treats regex characters in a secret literally', () => {
    expect(redact('k=a.b*c+d a-b-c-d', ['a.b*c+d'])).toBe(`k=${REDACTED} a-b-c-d`);
  });
});
