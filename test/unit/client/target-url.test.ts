import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, parseTargetUrl, targetLabel } from '../../../src/client/index.js';
import { ImportError } from '../../../src/core/errors/index.js';

const refusal = (input: string): ImportError => {
  try {
    parseTargetUrl(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('config_invalid');
    return error as ImportError;
  }
  throw new Error(`expected ${input} to be refused`);
};

describe('parseTargetUrl', () => {
  it('uses the origin: a trailing slash, /v1 or /v1/ is dropped', () => {
    for (const input of [
      'https://crs.example.com',
      'https://crs.example.com/',
      'https://crs.example.com/v1',
      'https://crs.example.com/v1/',
      'https://crs.example.com//V1//',
      '  https://CRS.example.com:443/v1 ',
    ]) {
      expect(parseTargetUrl(input).url, input).toBe('https://crs.example.com');
    }
    expect(parseTargetUrl('http://127.0.0.1:8787/v1/').url).toBe('http://127.0.0.1:8787');
  });

  it('keeps a path prefix in front of /v1 (a gateway that serves the API under a path)', () => {
    expect(parseTargetUrl('https://gw.example.com/crs/v1/').url).toBe('https://gw.example.com/crs');
    expect(parseTargetUrl('https://gw.example.com/crs/').url).toBe('https://gw.example.com/crs');
  });

  it('refuses an address without a scheme and suggests it with https:// (http:// on loopback)', () => {
    expect(refusal('crs.example.com').message).toBe(
      'the target URL "crs.example.com" does not start with http:// or https://; did you mean https://crs.example.com?',
    );
    expect(refusal('crs.example.com/v1').message).toContain('did you mean https://crs.example.com/v1?');
    expect(refusal('localhost:8787').message).toContain('did you mean http://localhost:8787?');
    expect(refusal('127.0.0.1:8787').message).toContain('did you mean http://127.0.0.1:8787?');
  });

  it('refuses other schemes, naming the one given and the fix', () => {
    const error = refusal('ftp://crs.example.com');
    expect(error.message).toContain('uses ftp://');
    expect(error.message).toContain('https://crs.example.com');
  });

  it('refuses an empty value, a query or a fragment', () => {
    expect(refusal('  ').message).toMatch(/empty/);
    expect(refusal('https://crs.example.com/?key=1').message).toMatch(/query or fragment/);
    expect(refusal('https://crs.example.com/#x').message).toMatch(/query or fragment/);
  });

  it('refuses userinfo, says where the key goes, and never repeats the password', () => {
    for (const input of [
      'http://user:S3cretPass@crs.example.com/',
      'http://S3cretPass@crs.example.com/v1',
      'https://user:S3cret%40Pass@crs.example.com',
      'https://user:S3cret@Pass@crs.example.com',
      'http://user:S3cret/Pass@crs.example.com/',
      'user:S3cretPass@crs.example.com',
    ]) {
      const error = refusal(input);
      expect(`${error.message} ${JSON.stringify(error.context)}`, input).not.toMatch(/S3cret|Pass/);
      expect(targetLabel(input), input).not.toMatch(/S3cret|Pass/);
    }
    const error = refusal('http://user:S3cretPass@crs.example.com/');
    expect(error.message).toContain('CONTACT_IMPORT_API_KEY');
    expect(error.message).toContain('"http://crs.example.com"');
    expect(error.message).not.toContain('user:');
  });

  it('targetLabel names a target for reports: parsed when valid, as typed otherwise', () => {
    expect(targetLabel('https://crs.example.com/v1/')).toBe('https://crs.example.com');
    expect(targetLabel('crs.example.com')).toBe('crs.example.com');
  });
});

describe('isLoopbackUrl', () => {
  it('knows the addresses of this machine from the others', () => {
    for (const url of [
      'http://127.0.0.1:4000',
      'http://localhost:80',
      'http://[::1]:9',
      'http://127.3.2.1',
      'https://LOCALHOST/x',
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      'https://crs.example.com',
      'http://10.0.0.1:4000',
      'http://128.0.0.1',
      'http://localhost.example.com',
      'http://[::2]',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});
