import { randomUUID } from 'node:crypto';
import type { ServiceClient } from '../client/index.js';
import type { KeyHonouring } from '../state/index.js';

/**
 * Whether the target honours `Idempotency-Key`, as the ledger recorded it or, when never seen, as
 * a create of no contacts sent twice under one fresh key shows (two requests, nothing created
 * either way): a target that honours the key answers the second with `Idempotent-Replayed: true`.
 * The answer is recorded for the scope, so it is asked once per target and user.
 */
export const keysHonoured = async (client: ServiceClient, scope: KeyHonouring): Promise<boolean> => {
  const known = scope.keysHonoured();
  if (known !== undefined) return known;
  const idempotencyKey = `contact-import-replay-check-${randomUUID()}`;
  let replayed = false;
  const onReplayed = () => (replayed = true);
  for (let i = 0; i < 2; i++) await client.createContacts([], { idempotencyKey, onReplayed });
  scope.recordKeysHonoured(replayed);
  return replayed;
};
