import type { FastifyInstance } from 'fastify';
import { reminderCreateBodySchema, reminderUpdateBodySchema } from '../../core/schemas/reminder.js';
import { notFound, ok, parseOr400 } from '../envelope.js';
import { pathId, type RouteContext } from './context.js';
import { idempotentCreate } from './idempotent.js';

/** E5 and E6. Linked contacts must be the user's own (400 naming the element otherwise). */
export function reminderRoutes(app: FastifyInstance, context: RouteContext): void {
  const { store } = context;
  app.post('/v1/reminders/', async (request, reply) => {
    const body = parseOr400(reminderCreateBodySchema, request.body, 'body');
    return idempotentCreate(context, request, reply, () => ({
      reminder: store.reminders.create(request.userId, body.reminder),
    }));
  });

  app.put('/v1/reminders/:id', async (request) => {
    const id = pathId(request, 'reminderId');
    const body = parseOr400(reminderUpdateBodySchema, request.body, 'body');
    const reminder = store.transaction(() => store.reminders.update(request.userId, id, body.reminder));
    if (!reminder) throw notFound('reminder', id);
    return ok({ reminder });
  });
}
