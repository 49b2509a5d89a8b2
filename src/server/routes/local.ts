import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, ok, parseOr400 } from '../envelope.js';
import { decodeCursor, page } from '../store/cursor.js';
import { pathId, type RouteContext } from './context.js';

/** Inspection pages are big so a test can read a whole large import in one or a few requests. */
export const LOCAL_TAKE_DEFAULT = 50_000;
export const LOCAL_TAKE_MAX = 100_000;

const localListQuerySchema = z.strictObject({
  take: z
    .string()
    .regex(/^\d+$/, 'take must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(LOCAL_TAKE_MAX))
    .optional(),
  cursor: z.string().optional(),
});

/**
 * `/_local/`: everything stored for the authenticated user, in full detail. Not part of the
 * service's API; for users and tests. `GET /_local/contacts` pages like E3 (`data.contacts`,
 * `data.nextCursor`); `DELETE /_local/contacts/:id` removes one (`data.deleted.id`).
 */
export function localRoutes(app: FastifyInstance, { store }: RouteContext): void {
  app.get('/_local/contacts', async (request) => {
    const query = parseOr400(localListQuerySchema, request.query, 'query');
    const take = query.take ?? LOCAL_TAKE_DEFAULT;
    const rows = store.contacts.list(request.userId, decodeCursor(query.cursor), take + 1);
    const { items, nextCursor } = page(rows, take);
    const contacts = items.map((row) => store.contacts.local(row));
    return ok(nextCursor === undefined ? { contacts } : { contacts, nextCursor });
  });

  app.get('/_local/contacts/:id', async (request) => {
    const id = pathId(request, 'contactId');
    const row = store.contacts.get(request.userId, id);
    if (!row) throw notFound('contact', id);
    return ok({ contact: store.contacts.local(row) });
  });

  // For tests of a target that lost contacts (short E1 counts): gone with its lists and links.
  app.delete('/_local/contacts/:id', async (request) => {
    const id = pathId(request, 'contactId');
    if (!store.transaction(() => store.contacts.delete(request.userId, id))) throw notFound('contact', id);
    return ok({ deleted: { id } });
  });

  app.get('/_local/groups', async (request) => ok({ groups: store.groups.local(request.userId) }));
  app.get('/_local/custom-fields', async (request) =>
    ok({ custom_fields: store.customFields.local(request.userId) }),
  );
  app.get('/_local/reminders', async (request) => ok({ reminders: store.reminders.local(request.userId) }));
}
