import { ImportError } from '../core/errors/index.js';
import type { PendingCreate } from './types.js';

/** A pending create as the ledger stores it: keys and hashes as JSON text. */
export interface PendingRow {
  run_id: string;
  idempotency_key: string;
  keys: string;
  hashes: string;
  body: string;
}

export function toPending(row: PendingRow): PendingCreate {
  return {
    runId: row.run_id,
    idempotencyKey: row.idempotency_key,
    keys: JSON.parse(row.keys) as string[],
    hashes: JSON.parse(row.hashes) as string[],
    body: row.body,
  };
}

export function sameChunk(a: PendingCreate, b: PendingCreate): boolean {
  return (
    a.body === b.body &&
    JSON.stringify(a.keys) === JSON.stringify(b.keys) &&
    JSON.stringify(a.hashes) === JSON.stringify(b.hashes)
  );
}

export function assertChunkShape(chunk: PendingCreate, file: string): void {
  const problem =
    chunk.idempotencyKey.length === 0
      ? 'an empty Idempotency-Key'
      : chunk.keys.length === 0
        ? 'no identity keys'
        : chunk.keys.length !== chunk.hashes.length
          ? `${chunk.keys.length} keys but ${chunk.hashes.length} hashes`
          : new Set(chunk.keys).size !== chunk.keys.length
            ? 'an identity key twice'
            : undefined;
  if (problem) {
    throw new ImportError(
      'state_error',
      `A create chunk for Idempotency-Key "${chunk.idempotencyKey}" has ${problem}; expected a non-empty key and one distinct identity key and one hash per contact.`,
      { file },
    );
  }
}
