import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UserStore } from './store/users.js';

export const hashApiKey = (apiKey: string): Buffer => createHash('sha256').update(apiKey, 'utf8').digest();

/** A fresh key for a generated user: 32 random bytes, URL-safe, recognisable by its prefix. */
export const generateApiKey = (): string => `cil_${randomBytes(32).toString('base64url')}`;

/** What a key may look like: what fits in `Authorization: Bearer <key>` without quoting. */
export const isUsableApiKey = (apiKey: string): boolean => /^[\x21-\x7e]{8,512}$/.test(apiKey);

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

/**
 * The users' keys, held only as sha256 hashes (in the database and here). A presented key is
 * hashed and compared against every known hash in constant time, so neither a key's content nor
 * which user matched shows in the timing.
 */
export class KeyRing {
  private readonly users: UserStore;
  private entries: { id: number; hash: Buffer }[] = [];

  constructor(users: UserStore) {
    this.users = users;
    this.reload();
  }

  /** Registers a key (idempotent: a key already known maps to its existing user). */
  add(apiKey: string): void {
    this.users.add(hashApiKey(apiKey).toString('hex'));
    this.reload();
  }

  /** The user id a request's `Authorization` header belongs to, or undefined. */
  resolve(authorization: string | undefined): number | undefined {
    const match = authorization === undefined ? null : BEARER.exec(authorization);
    if (!match?.[1]) return undefined;
    const presented = hashApiKey(match[1]);
    let found: number | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(presented, entry.hash) && found === undefined) found = entry.id;
    }
    return found;
  }

  private reload(): void {
    this.entries = this.users.all().map((u) => ({ id: u.id, hash: Buffer.from(u.key_hash, 'hex') }));
  }
}
