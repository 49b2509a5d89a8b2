import type { FastifyInstance } from 'fastify';
import { groupCreateBodySchema, groupUpdateBodySchema } from '../../core/schemas/group.js';
import { notFound, ok, parseOr400 } from '../envelope.js';
import { pathId, type RouteContext } from './context.js';
import { idempotentCreate } from './idempotent.js';

/** E7 and E8. A parent or member must be the user's own (400 naming the path otherwise). */
export function groupRoutes(app: FastifyInstance, context: RouteContext): void {
  const { store } = context;
  app.post('/v1/groups/', async (request, reply) => {
    const body = parseOr400(groupCreateBodySchema, request.body, 'body');
    return idempotentCreate(context, request, reply, () => ({
      group: store.groups.create(request.userId, body.group),
    }));
  });

  app.put('/v1/groups/:id', async (request) => {
    const id = pathId(request, 'groupId');
    const body = parseOr400(groupUpdateBodySchema, request.body, 'body');
    const group = store.transaction(() => store.groups.update(request.userId, id, body.group));
    if (!group) throw notFound('group', id);
    return ok({ group });
  });
}
