import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, ok, type SuccessEnvelope } from '../envelope.js';
import { bodyBytesOf } from '../json-body.js';
import type { RouteContext } from './context.js';

const MAX_KEY_LENGTH = 255;

function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_KEY_LENGTH) {
    throw new ServiceError(
      400,
      'invalid_body',
      `The Idempotency-Key header must be one value of 1 to ${MAX_KEY_LENGTH} characters.`,
      [{ path: 'Idempotency-Key', message: 'Expected one non-empty value.' }],
    );
  }
  return header;
}

/** sha256 of the request's route and a body text (streamed: the route, then the body). */
const hashOf = (request: FastifyRequest, body: Buffer | string): string =>
  createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n`)
    .update(body)
    .digest('hex');

/**
 * What makes a repeat the same request: its route and its body's bytes, as a retry sends them
 * (hashed as they came, not serialized again: a 100-contact body is 50 KB).
 */
const fingerprint = (request: FastifyRequest): string =>
  hashOf(request, bodyBytesOf(request) ?? JSON.stringify(request.body));

/**
 * The fingerprint a key stored by an earlier version holds (its body serialized again from the
 * parsed value): a create retried across an upgrade of the local service still replays.
 */
const earlierFingerprint = (request: FastifyRequest): string => hashOf(request, JSON.stringify(request.body));

/** A stored answer goes out as the text it was stored as, with the type fastify gives an object. */
const asJson = (reply: FastifyReply, text: string): string => {
  void reply.type('application/json; charset=utf-8');
  return text;
};

/**
 * Runs a create in one transaction. With an `Idempotency-Key` header the answer is stored with the
 * create; a repeat by the same user with the same key and body gets the first answer again (header
 * `Idempotent-Replayed: true`) and creates nothing. The same key with a different request: 409
 * `idempotency_conflict`. With idempotency off, every create is a new create.
 */
export function idempotentCreate<T>(
  { store, idempotency }: RouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
  create: () => T,
): SuccessEnvelope<T> | string {
  // Like a target without the feature: the header is not even looked at.
  const key = idempotency ? idempotencyKey(request) : undefined;
  if (key === undefined) return store.transaction(() => ok(create()));
  const requestHash = fingerprint(request);
  const earlier = store.idempotency.find(request.userId, key);
  if (earlier) {
    if (earlier.requestHash !== requestHash && earlier.requestHash !== earlierFingerprint(request)) {
      throw new ServiceError(
        409,
        'idempotency_conflict',
        `The Idempotency-Key '${key.slice(0, 64)}' was used before with a different request.`,
      );
    }
    void reply.header('idempotent-replayed', 'true');
    return asJson(reply, earlier.responseText);
  }
  // Serialized once: the text stored for a replay is the text sent now.
  const responseText = store.transaction(() => {
    const text = JSON.stringify(ok(create()));
    store.idempotency.save(request.userId, key, { requestHash, status: 200, responseText: text });
    return text;
  });
  return asJson(reply, responseText);
}
