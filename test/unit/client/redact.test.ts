import { describe, expect, it } from 'vitest';
import { createRedactor, MIN_SECRET_REPLACED_ANYWHERE, redact, REDACTED } from '../../../src/client/index.js';
import { patternOf } from '../../../src/client/redact.js';
import { seededRandom } from '../../../src/core/random.js';

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

describe('redact: the key in disguise', () => {
  const key = 'sk_live/9f8e7d6c5b4a+Zq=';
  const redactor = createRedactor([key]);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const b64url = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['percent-encoded', encodeURIComponent(key)],
    [
      'percent-encoded, lower-case hex',
      encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    ],
    [
      'every byte percent-encoded',
      [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
    ],
    ['percent-encoded twice', encodeURIComponent(encodeURIComponent(key))],
    ['base64', b64(key)],
    ['base64url', b64url(key)],
    ['base64 of user:key', b64(`user:${key}`)],
    ['base64 of a longer user name', b64(`someone@example.com:${key}`)],
    ['base64url of Bearer key', b64url(`Bearer ${key}`)],
    ['hex', Buffer.from(key).toString('hex')],
  ])('%s', (_, form) => {
    const out = redactor(`before ${form} after`);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(form);
    expect(out.startsWith('before ')).toBe(true);
    expect(out.endsWith(' after')).toBe(true);
  });

  it('leaves base64 and percent-encoded text without the key alone', () => {
    const text = `${b64('hello world, nothing here')} %2Fpath%3Fq ${b64url('user:other-secret-value')}`;
    expect(redactor(text)).toBe(text);
  });

  it('an excerpt is redacted before it is cut, and never ends in the start of the key', () => {
    const page = `<html>Error: invalid token ${key} for this route</html>`;
    const cut = redactor.excerpt(page, 30);
    expect(cut).toBe(`<html>Error: invalid token ${REDACTED}`.slice(0, 30));
    expect(redactor.excerpt(page, 60)).toBe(
      `<html>Error: invalid token ${REDACTED} for this route</html>`.slice(0, 60),
    );
    // A target that cut its own echo: 12 characters of the key at the end.
    expect(redactor.excerpt(`denied: ${key.slice(0, 12)}`, 60)).toBe(`denied: ${REDACTED}`);
    // Fewer than 8 characters of the key say nothing of it and stay.
    expect(redactor.excerpt(`denied: ${key.slice(0, 5)}`, 60)).toBe(`denied: ${key.slice(0, 5)}`);
  });
});

describe('redact: texts that cannot hold the key are left without running its pattern', () => {
  it('answers what running every pattern answers, disguised, glued or absent', () => {
    const next = seededRandom(11);
    const random = (n: number): number => Math.floor(next() * n);
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const secrets = ['net', 'k3y-abcd', 'sk_live/9f8e7d6c5b4a+Zq=', 'ÄpiKëy-ünïcode-42', 'AbCdEf0123456789'];
    const disguises: ((secret: string) => string)[] = [
      (secret) => secret,
      (secret) => encodeURIComponent(secret),
      (secret) => [...Buffer.from(secret)].map((b) => `%${b.toString(16)}`).join(''),
      (secret) => Buffer.from(`Bearer ${secret}`).toString('base64'),
      (secret) => Buffer.from(`user:${secret}`).toString('base64url'),
      (secret) => Buffer.from(secret).toString('hex').toUpperCase(),
      (secret) => secret.slice(0, 5),
      () => 'nothing-to-see',
    ];
    const fillers = ['', ' ', 'x', '/api/v1/contacts/', 'é', '%', '%2', 'network', '=='];
    for (let round = 0; round < 2_000; round++) {
      const kept = secrets.filter(() => random(2) === 0);
      const text = Array.from({ length: 1 + random(4) }, () =>
        random(3) === 0 ? pick(disguises)(pick(secrets)) : pick(fillers),
      ).join(pick(['', ' ', '&']));
      const everyPattern = [...kept]
        .sort((a, b) => b.length - a.length)
        .reduce((result, secret) => result.replace(patternOf(secret), REDACTED), text);
      expect(createRedactor(kept)(text), `${text} with ${kept.join(', ')}`).toBe(everyPattern);
    }
  });
});
