import { createHash } from 'node:crypto';

/** 32 hex characters (128 bits): collisions are out of reach for change detection. */
const HASH_HEX_LENGTH = 32;

/**
 * A stable hash of a JSON value: object keys are sorted at every depth, so two objects with the
 * same content hash the same whatever order their keys were set in. Follows JSON.stringify's
 * rules otherwise (toJSON is honoured, undefined object members are left out, undefined array
 * elements and non-finite numbers become null), so a value hashes as the JSON it would be sent as.
 */
export function contentHash(value: unknown): string {
  return textHash(canonicalJson(value) ?? 'null');
}

/**
 * The hash of JSON text as it is (its UTF-8 bytes): a contact write's, whose text is made once
 * and sent as hashed (load/write-object.ts). Equal to contentHash of a value whose canonical JSON
 * that text is, so hashes recorded either way compare.
 */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_HEX_LENGTH);
}

/** Canonical JSON text of a value, or undefined where JSON.stringify would leave it out. */
export function canonicalJson(value: unknown): string | undefined {
  return serialize(value, new Set());
}

function serialize(input: unknown, ancestors: Set<object>): string | undefined {
  const value = hasToJson(input) ? input.toJSON() : input;
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError(`contentHash: got a bigint (${value}); expected a JSON value`);
    case 'object':
      break;
    default:
      // undefined, functions and symbols: JSON leaves them out.
      return undefined;
  }
  if (ancestors.has(value))
    throw new TypeError('contentHash: got a circular structure; expected a JSON value');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item: unknown) => serialize(item, ancestors) ?? 'null').join(',')}]`;
    }
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const member = serialize((value as Record<string, unknown>)[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  );
}
