import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../core/schemas/primitives.js';
import { ServiceError } from '../envelope.js';
import type { Store } from '../store/index.js';

export interface RouteContext {
  store: Store;
  maxBulk: number;
  /** False (`serve --no-idempotency`): creates ignore the `Idempotency-Key` header. */
  idempotency: boolean;
}

const idParams = z.object({ id: z.string() });

/** The `:id` path parameter, which must be a UUID (400 `invalid_path` naming `name` otherwise). */
export function pathId(request: FastifyRequest, name: string): string {
  const id = idParams.parse(request.params).id;
  if (!uuid.safeParse(id).success) {
    throw new ServiceError(400, 'invalid_path', `The ${name} '${id.slice(0, 64)}' is not a UUID.`, [
      { path: name, message: 'Expected a UUID.' },
    ]);
  }
  return id;
}

/** 413 when a bulk array has more elements than the service takes in one request. */
export function checkBulkSize(length: number, maxBulk: number, what: string): void {
  if (length > maxBulk) {
    throw new ServiceError(
      413,
      'payload_too_large',
      `${what} has ${length} elements; at most ${maxBulk} per request.`,
      [{ path: what, message: `At most ${maxBulk} elements.` }],
    );
  }
}
