import { ImportError } from '../core/errors/index.js';
import { API_KEY_ENV } from './api-key.js';

export interface TargetUrl {
  /** Origin plus any path prefix, without a trailing `/` or `/v1`: the client's base URL. */
  url: string;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?([/?#]|$)/i;

/** The URL's host is this machine's loopback: a service there runs on this machine's cores. */
export const isLoopbackUrl = (url: string): boolean => LOOPBACK.test(new URL(url).host);

/**
 * The text as typed, minus everything up to its last `@` (any `user:password@`, even one holding
 * `/` or `@`): a message must never carry a password, and a target's path has no `@`.
 */
const withoutUserinfo = (text: string): string => text.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, '$1');

const invalid = (message: string): ImportError =>
  new ImportError('config_invalid', message, { field: 'target' });

/**
 * The target as the client uses it. Accepts what users type for a service's address: a trailing
 * `/` or `/v1` (the API's own prefix, which the client adds itself) is dropped. Refuses, with the
 * fix in the message: no scheme or another scheme than http/https, a query or fragment, and
 * userinfo (`http://user:pass@host`; the API key goes in CONTACT_IMPORT_API_KEY). No message
 * repeats userinfo.
 */
export function parseTargetUrl(input: string, name = 'the target URL'): TargetUrl {
  const typed = input.trim();
  const shown = JSON.stringify(withoutUserinfo(typed));
  if (typed === '') throw invalid(`${name} is empty; expected an address like https://crs.example.com.`);
  const scheme = SCHEME.exec(typed)?.[1];
  if (scheme === undefined) {
    const suggested = `${LOOPBACK.test(typed) ? 'http' : 'https'}://${withoutUserinfo(typed)}`;
    throw invalid(`${name} ${shown} does not start with http:// or https://; did you mean ${suggested}?`);
  }
  if (!/^https?$/i.test(scheme)) {
    const suggested = `https://${withoutUserinfo(typed).slice(scheme.length + 3)}`;
    throw invalid(`${name} ${shown} uses ${scheme}://; expected http:// or https://, e.g. ${suggested}.`);
  }
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw invalid(`${name} ${shown} is not a valid URL; expected an address like https://crs.example.com.`);
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '').replace(/\/+$/, '');
  if (url.username !== '' || url.password !== '') {
    throw invalid(
      `${name} ${JSON.stringify(url.origin + path)} holds a user name or password, which is never sent; ` +
        `give the URL without it and put the API key in ${API_KEY_ENV} (or a file named by --api-key-file).`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalid(
      `${name} ${shown} has a query or fragment; expected only the service's address, e.g. ${url.origin + path}.`,
    );
  }
  return { url: url.origin + path };
}

/** How a report names a target it could not connect to: the URL as parsed, or as typed minus userinfo. */
export function targetLabel(input: string): string {
  try {
    return parseTargetUrl(input).url;
  } catch {
    return withoutUserinfo(input.trim());
  }
}
