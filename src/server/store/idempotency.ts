import { LIMITS } from '../../core/schemas/limits.js';
import type { Db } from './schema.js';

export interface StoredAnswer {
  requestHash: string;
  status: number;
  /** The answer's body as it was sent: stored and replayed as text, serialized once. */
  responseText: string;
}

/**
 * Idempotency keys of creates, per user, kept `LIMITS.idempotencyTtlMs`. The answer is saved in
 * the same transaction as the create, so a create and its key are stored together or not at all.
 */
export class IdempotencyStore {
  private readonly findStatement;
  private readonly saveStatement;
  private readonly purgeStatement;
  private readonly ttlMs: number;

  constructor(db: Db, ttlMs: number = LIMITS.idempotencyTtlMs) {
    this.ttlMs = ttlMs;
    this.findStatement = db.prepare(
      'SELECT request_hash, status, response FROM idempotency_keys WHERE user_id = ? AND key = ? AND created_at > ?',
    );
    this.saveStatement = db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (user_id, key, request_hash, status, response, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.purgeStatement = db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?');
  }

  find(userId: number, key: string, now = Date.now()): StoredAnswer | undefined {
    const row = this.findStatement.get(userId, key, now - this.ttlMs) as
      { request_hash: string; status: number; response: string } | undefined;
    return (
      row && {
        requestHash: row.request_hash,
        status: row.status,
        responseText: row.response,
      }
    );
  }

  save(userId: number, key: string, answer: StoredAnswer, now = Date.now()): void {
    this.saveStatement.run(userId, key, answer.requestHash, answer.status, answer.responseText, now);
  }

  purgeExpired(now = Date.now()): number {
    return this.purgeStatement.run(now - this.ttlMs).changes;
  }
}
