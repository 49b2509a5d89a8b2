import type { SocialField } from '../core/schemas/limits.js';
import { fail, ok, quote, type Normalized } from './result.js';
import { normalizeWebsite } from './urls.js';

/** Letters, digits and the few marks networks allow in user names (`.` `_` `-` `+` `#` `~`). */
const HANDLE = /^[\p{L}\p{M}\p{N}._+#~-]+$/u;
const MAX_HANDLE = 100;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** "example.com/jdoe" without a scheme: a host with a dot, then a path. */
const BARE_PROFILE_URL = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+\//u;

/**
 * A social handle, kept under the service's neutral field name. A profile URL (with or without
 * scheme) is kept as a URL, normalized like a website; a handle is stored without its leading
 * `@` so "@jdoe" and "jdoe" are the same value. Anything with spaces, control characters or
 * other punctuation is `invalid_handle`. The networks behind the neutral names are not known to
 * the importer, so a URL is not reduced to a handle.
 */
export function normalizeHandle(field: SocialField, value: string): Normalized<string> {
  const text = value.trim();
  if (HAS_SCHEME.test(text) || BARE_PROFILE_URL.test(text)) {
    const url = normalizeWebsite(text);
    if (url.ok) return url;
    return fail(
      'invalid_handle',
      `${field} ${quote(text)} looks like a profile link but is not a valid one: ${url.message}`,
    );
  }
  const handle = text.startsWith('@') ? text.slice(1) : text;
  if (handle === '' || handle.length > MAX_HANDLE || !HANDLE.test(handle)) {
    return fail(
      'invalid_handle',
      `${field} ${quote(text)} is not a handle: expected a user name (letters, digits, . _ - + # ~; at most ${MAX_HANDLE}), an @name, or a profile URL.`,
    );
  }
  return ok(handle);
}
