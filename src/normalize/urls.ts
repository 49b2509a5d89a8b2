import { LIMITS } from '../core/schemas/limits.js';
import { fail, ok, quote, type Normalized } from './result.js';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCHEME_RELATIVE = /^\/\//;
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/**
 * A website: `https://` is added when the value has no scheme ("example.com/about"), the result
 * must be an http(s) URL whose host has a dot (or is an IP literal), and values past 2083
 * characters (the service's limit) are dropped. The text is otherwise kept as written: a
 * trailing slash or the host's case are not the importer's business.
 */
export function normalizeWebsite(value: string): Normalized<string> {
  const text = value.trim();
  const withScheme = HAS_SCHEME.test(text)
    ? text
    : SCHEME_RELATIVE.test(text)
      ? `https:${text}`
      : `https://${text}`;
  if (withScheme.length > LIMITS.websiteMaxLength) {
    return fail(
      'value_too_long',
      `Website ${quote(text)} is ${withScheme.length} characters long; the service allows at most ${LIMITS.websiteMaxLength}.`,
    );
  }
  const reason = websiteProblem(text, withScheme);
  if (reason !== undefined) {
    return fail(
      'invalid_website',
      `Website ${quote(text)} is not valid: ${reason}; expected a web address like example.com or https://example.com/page.`,
    );
  }
  return ok(withScheme);
}

function websiteProblem(text: string, withScheme: string): string | undefined {
  if (text === '') return 'it is empty';
  if (WHITESPACE_OR_CONTROL.test(text)) return 'it contains spaces or control characters';
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return 'it cannot be read as a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `its scheme ${quote(url.protocol)} is not http or https`;
  // "mailto:a@example.com" would read as user "mailto", password "a" at example.com.
  if (url.username !== '' || url.password !== '')
    return 'it holds a user name or password (an @ before the host)';
  const host = url.hostname;
  if (!host.includes('.') && !host.startsWith('[')) return `its host ${quote(host)} has no dot`;
  if (host.startsWith('.') || host.endsWith('..') || host.includes('..'))
    return `its host ${quote(host)} has an empty label`;
  return undefined;
}
