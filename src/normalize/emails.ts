import { domainToASCII } from 'node:url';
import { fail, ok, quote, type Normalized } from './result.js';

/**
 * A practical subset of RFC 5321/5322 that address books meet (docs/normalization.md): a
 * dot-atom local part (RFC 6531 letters allowed), a domain of at least two labels, Unicode
 * domains accepted and checked in their IDNA form. No quoted local parts, comments, folding
 * whitespace or IP literals: a contact's address never needs them, and they mostly come from
 * broken cells.
 */
const LOCAL_PART =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+)*$/u;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ALL_DIGITS = /^[0-9]+$/;
const PLAIN_DOMAIN = /^[a-z0-9.-]+$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

const invalid = (value: string, why: string): Normalized<string> =>
  fail(
    'invalid_email',
    `E-mail ${quote(value)} is not valid: ${why}; expected an address like name@example.com.`,
  );

/** Trimmed, lowercased (NFC), syntax-checked; `invalid_email` with the reason otherwise. */
export function normalizeEmail(value: string): Normalized<string> {
  // Printable ASCII without spaces is its own trimmed NFC form: only the case changes (hot path).
  const address = PRINTABLE_ASCII.test(value)
    ? value.toLowerCase()
    : value.trim().normalize('NFC').toLowerCase();
  if (address === '') return invalid(value, 'it is empty');
  const at = address.lastIndexOf('@');
  if (at < 0) return invalid(value, 'it has no @');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local === '') return invalid(value, 'the part before @ is empty');
  if (domain === '') return invalid(value, 'the domain after @ is empty');
  if (!LOCAL_PART.test(local)) {
    return invalid(value, 'the part before @ holds characters, spaces or dots that are not allowed');
  }
  if (Buffer.byteLength(local, 'utf8') > MAX_LOCAL) {
    return invalid(value, `the part before @ is longer than ${MAX_LOCAL} bytes`);
  }
  // A plain ASCII domain is its own IDNA form; punycode labels (xn--) still get checked.
  const asciiDomain = PLAIN_DOMAIN.test(domain) && !domain.includes('xn--') ? domain : domainToASCII(domain);
  if (asciiDomain === '') return invalid(value, 'the domain is not a valid host name');
  const labels = asciiDomain.split('.');
  if (labels.length < 2) return invalid(value, 'the domain has no dot');
  for (const label of labels) {
    if (!ASCII_LABEL.test(label)) {
      return invalid(
        value,
        `the domain label ${quote(label)} is empty, too long, or starts or ends with a hyphen`,
      );
    }
  }
  if (ALL_DIGITS.test(labels[labels.length - 1] ?? ''))
    return invalid(value, 'the top-level domain is numeric');
  if (asciiDomain.length > MAX_DOMAIN)
    return invalid(value, `the domain is longer than ${MAX_DOMAIN} characters`);
  if (Buffer.byteLength(local, 'utf8') + 1 + asciiDomain.length > MAX_ADDRESS) {
    return invalid(value, `the address is longer than ${MAX_ADDRESS} characters`);
  }
  return ok(address);
}
