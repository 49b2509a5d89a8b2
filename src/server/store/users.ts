import type { Db } from './schema.js';

/** Users are known only by the sha256 hash of their API key; the key itself is never stored. */
export class UserStore {
  private readonly insertStatement;
  private readonly allStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare(
      'INSERT INTO users (key_hash, created_at) VALUES (?, ?) ON CONFLICT (key_hash) DO NOTHING',
    );
    this.allStatement = db.prepare('SELECT id, key_hash FROM users');
  }

  /** Registers a key hash (again: no-op) and returns every user's hash and id. */
  add(keyHash: string): void {
    this.insertStatement.run(keyHash, new Date().toISOString());
  }

  all(): { id: number; key_hash: string }[] {
    return this.allStatement.all() as { id: number; key_hash: string }[];
  }
}
