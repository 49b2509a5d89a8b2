import { createHmac } from 'node:crypto';
import { ImportError } from '../core/errors/index.js';

/**
 * A fixed, public application salt. It is not a secret: it only makes our scope ids differ from a
 * plain sha256 of the key that another tool might also store.
 */
const SCOPE_SALT = 'contact-import/ledger-scope/v1';

/** The target name used for the in-process local service (its port changes from run to run). */
export const LOCAL_TARGET = 'local';

/**
 * A stable id for one user on one target, used to key every ledger row.
 *
 * Why this is safe enough: the ledger is a local file, and what it stores is an HMAC-SHA256 of
 * the normalized target and the API key under a fixed salt. A hash cannot be reversed to the key,
 * and API keys are long random tokens, so guessing a key from its scope id is out of reach. Anyone
 * who already holds the key can compute the id; that reveals nothing they do not already have. The
 * raw key is never written to the ledger.
 */
export function scopeId(target: string, apiKey: string): string {
  if (apiKey.length === 0) {
    throw new ImportError(
      'api_key_missing',
      `The ledger scope for target ${target} needs an API key; got an empty one.`,
    );
  }
  return createHmac('sha256', SCOPE_SALT)
    .update(normalizeTarget(target))
    .update('\0')
    .update(apiKey)
    .digest('hex')
    .slice(0, 32);
}

/**
 * One spelling per target: `local`, or an http(s) URL with lowercased scheme and host, no default
 * port, no query, fragment, credentials or trailing slash. `HTTP://Example.com:443/` and
 * `https://example.com` are therefore different targets, but `https://example.com:443/` is not.
 */
export function normalizeTarget(target: string): string {
  const trimmed = target.trim();
  if (trimmed.toLowerCase() === LOCAL_TARGET) return LOCAL_TARGET;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ImportError(
      'config_invalid',
      `The target "${trimmed}" is not a URL; expected http(s)://host[:port][/path] or "local".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportError(
      'config_invalid',
      `The target "${trimmed}" uses ${url.protocol}; expected http: or https:.`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}
