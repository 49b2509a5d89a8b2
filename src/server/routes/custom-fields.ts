import type { FastifyInstance } from 'fastify';
import { customFieldCreateBodySchema, customFieldUpdateBodySchema } from '../../core/schemas/custom-field.js';
import { notFound, ok, parseOr400 } from '../envelope.js';
import { pathId, type RouteContext } from './context.js';
import { idempotentCreate } from './idempotent.js';

/** E9 (field_type defaults to `input`) and E10. */
export function customFieldRoutes(app: FastifyInstance, context: RouteContext): void {
  const { store } = context;
  app.post('/v1/custom-fields/', async (request, reply) => {
    const body = parseOr400(customFieldCreateBodySchema, request.body, 'body');
    return idempotentCreate(context, request, reply, () => ({
      custom_field: store.customFields.create(request.userId, body.custom_field),
    }));
  });

  app.put('/v1/custom-fields/:id', async (request) => {
    const id = pathId(request, 'customFieldId');
    const body = parseOr400(customFieldUpdateBodySchema, request.body, 'body');
    const customField = store.transaction(() =>
      store.customFields.update(request.userId, id, body.custom_field),
    );
    if (!customField) throw notFound('custom field', id);
    return ok({ custom_field: customField });
  });
}
