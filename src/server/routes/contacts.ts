import type { FastifyInstance } from 'fastify';
import {
  bulkUpdateBodySchema,
  contactWriteSchema,
  createContactsBodySchema,
} from '../../core/schemas/contact.js';
import { notFound, ok, parseOr400 } from '../envelope.js';
import { checkBulkSize, pathId, type RouteContext } from './context.js';
import { idempotentCreate } from './idempotent.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `POST /v1/contacts/` (create), E1 (bulk update) and E2 (update one). */
export function contactRoutes(app: FastifyInstance, context: RouteContext): void {
  const { store, maxBulk } = context;
  app.post('/v1/contacts/', async (request, reply) => {
    const raw = request.body;
    if (isRecord(raw) && Array.isArray(raw.contacts)) checkBulkSize(raw.contacts.length, maxBulk, 'contacts');
    const body = parseOr400(createContactsBodySchema, raw, 'body', 1);
    return idempotentCreate(context, request, reply, () => ({
      contacts: body.contacts.map((write, index) =>
        store.contacts.response(
          store.contacts.create(request.userId, write, { prefix: `contacts.${index}.`, index }),
        ),
      ),
    }));
  });

  app.put('/v1/contacts/', async (request) => {
    if (Array.isArray(request.body)) checkBulkSize(request.body.length, maxBulk, 'body');
    const elements = parseOr400(bulkUpdateBodySchema, request.body, 'body', 0);
    // All or nothing: a bad reference in any element throws inside the transaction.
    const count = store.transaction(() => {
      // Their lists in one query per table, not one per contact and table.
      store.contacts.lists.keyed.preload(elements.map((element) => element.contactId));
      let updated = 0;
      elements.forEach((element, index) => {
        const at = { prefix: `${index}.data.`, index };
        if (store.contacts.merge(request.userId, element.contactId, element.data, at)) updated += 1;
      });
      return updated;
    });
    return ok({ count });
  });

  app.put('/v1/contacts/:id', async (request) => {
    const id = pathId(request, 'contactId');
    const write = parseOr400(contactWriteSchema, request.body, 'body');
    const row = store.transaction(() => store.contacts.update(request.userId, id, write, { prefix: '' }));
    if (!row) throw notFound('contact', id);
    return ok({ contact: store.contacts.response(row) });
  });
}
