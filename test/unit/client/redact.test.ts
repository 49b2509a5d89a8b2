import { describe, expect, it } from 'vitest';
import { createRedactor, MIN_SECRET_REPLACED_ANYWHERE, redact, REDACTED } from '../../../src/client/index.js';

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

describe('redact: whole occurrences only', () => {
  it('leaves words that merely contain a short key alone', () => {
    const out = redact('network error: the internet is down (key net)', ['net']);
    expect(out).toBe(`network error: the internet is down (key ${REDACTED})`);
  });

  it('replaces a short key wherever it stands alone, whatever the punctuation around it', () => {
    const text = 'net;Bearer net,"net"\n=net/net.';
    expect(redact(text, ['net'])).toBe(
      `${REDACTED};Bearer ${REDACTED},"${REDACTED}"\n=${REDACTED}/${REDACTED}.`,
    );
  });

  it('counts letters and digits of any script as part of a word', () => {
    expect(redact('énet net9 9net ネnet', ['net'])).toBe('énet net9 9net ネnet');
    expect(redact('é net ネ', ['net'])).toBe(`é ${REDACTED} ネ`);
  });

  it(`replaces a key of ${MIN_SECRET_REPLACED_ANYWHERE} characters or more even glued to other text`, () => {
    const key = 'k3y-abcd';
    expect(key).toHaveLength(MIN_SECRET_REPLACED_ANYWHERE);
    expect(redact(`Bearer${key} %2F${key}x`, [key])).toBe(`Bearer${REDACTED} %2F${REDACTED}x`);
  });

  it('a redactor compiled once gives the same answers as redact', () => {
    const redactor = createRedactor(['net', 'ck_live_9f8e7d']);
    const text = 'network ck_live_9f8e7d net';
    expect(redactor(text)).toBe(redact(text, ['net', 'ck_live_9f8e7d']));
    expect(redactor(text)).toBe(`network ${REDACTED} ${REDACTED}`);
  });
});
