import { randomUUID } from 'node:crypto';
import type { ServiceClient } from '../client/index.js';
import type { LedgerScope, PendingCreate } from '../state/index.js';

/**
 * How long after its request left a pending create is resent under its own key instead of looked
 * up: half the 24 hours the local service keeps a key (DESIGN.md), since API.md names no term. An
 * older one is looked up by search, as on a target that ignores keys.
 */
export const KEY_TRUST_MS = 12 * 60 * 60 * 1000;

/**
 * Whether the target honours `Idempotency-Key`, as the ledger recorded it or, when never seen, as
 * a create of no contacts sent twice under one fresh key shows (two requests, nothing created
 * either way): a target that honours the key answers the second with `Idempotent-Replayed: true`.
 * The answer is recorded for the scope, so it is asked once per target and user.
 */
export const keysHonoured = async (client: ServiceClient, scope: LedgerScope): Promise<boolean> => {
  const known = scope.keysHonoured();
  if (known !== undefined) return known;
  const idempotencyKey = `contact-import-replay-check-${randomUUID()}`;
  let replayed = false;
  const onReplayed = () => (replayed = true);
  for (let i = 0; i < 2; i++) await client.createContacts([], { idempotencyKey, onReplayed });
  scope.recordKeysHonoured(replayed);
  return replayed;
};

/** A pending create recent enough for the target to still hold its key. */
export const keyStillHeld = (pending: PendingCreate, now = Date.now()): boolean =>
  pending.sentAt !== undefined && now - Date.parse(pending.sentAt) < KEY_TRUST_MS;
