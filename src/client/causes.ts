/**
 * Network failures in words. Node and undici report them by code (`ECONNREFUSED`, `ENOTFOUND`,
 * `ERR_SSL_WRONG_VERSION_NUMBER`); a user needs to read what happened, so messages say it in words
 * and keep the code in parentheses for searching.
 */

const IN_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens at that address and port)',
  ENOTFOUND: 'host name not found (DNS)',
  EAI_AGAIN: 'host name lookup failed for now (DNS)',
  EAI_FAIL: 'host name lookup failed (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host is down',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset by the other side',
  EPIPE: 'the connection closed while the request was sent',
  UND_ERR_CONNECT_TIMEOUT: 'no connection could be opened in time',
  UND_ERR_SOCKET: 'the connection closed before a complete answer',
  UND_ERR_CLOSED: 'the connection closed before a complete answer',
  UND_ERR_HEADERS_TIMEOUT: 'no answer headers in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
};

/**
 * Failures of opening the connection itself: the request never reached the service, and trying
 * again in a moment rarely helps at the start of a run (a wrong host, port or scheme).
 */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** TLS failures: OpenSSL (`ERR_SSL_*`), Node (`ERR_TLS_*`) and certificate verification codes. */
const isTlsCode = (code: string): boolean =>
  /^ERR_(SSL|TLS)_/.test(code) || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);

/** The first string `code` along an error's `cause` chain (undici wraps socket errors). */
export function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
    current = current.cause;
  }
  return undefined;
}

/** True for a failure to open the connection at all: refused, DNS, unreachable, or TLS. */
export const isConnectFailure = (code: string | undefined): boolean =>
  code !== undefined && (CONNECT_FAILURES.has(code) || isTlsCode(code));

/** "connection refused (nothing listens ...) (ECONNREFUSED)", or the error's own words. */
export function describeNetworkCause(error: unknown): string {
  const code = networkCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === undefined) return message;
  if (isTlsCode(code)) return `TLS failed: ${tlsReason(message)} (${code})`;
  return `${IN_WORDS[code] ?? message} (${code})`;
}

/** OpenSSL messages carry a source location; keep the readable reason. */
const tlsReason = (message: string): string => {
  const openssl = /:SSL routines:[^:]*:([^:]+):/.exec(message);
  return openssl?.[1] ?? message;
};
