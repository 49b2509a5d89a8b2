import type { FastifyInstance } from 'fastify';
import { legacyUpdateBodySchema } from '../../core/schemas/legacy.js';
import { invalidBodyAt, notFound, ok, parseOr400 } from '../envelope.js';
import { pathId, type RouteContext } from './context.js';

/**
 * E11, the older update: applies `changes`; `update_contact_emails: true` makes `contact_emails`
 * the whole e-mail list (absent list: none), `false` or absent leaves e-mails alone; the same for
 * phones. Answers like E2 (`data.contact`).
 */
export function legacyRoutes(app: FastifyInstance, { store }: RouteContext): void {
  app.put('/api/rest/contacts/:id', async (request) => {
    const id = pathId(request, 'contactId');
    const body = parseOr400(legacyUpdateBodySchema, request.body, 'body');
    if (body.contactId !== undefined && body.contactId !== id) {
      throw invalidBodyAt(
        'contactId',
        `The body names contact '${body.contactId}' but the path names '${id}'.`,
      );
    }
    const row = store.transaction(() => {
      const changes = Object.entries(body.changes ?? {}).filter(([, value]) => value !== undefined);
      if (!store.contacts.touch(request.userId, id, changes)) return undefined;
      if (body.update_contact_emails === true) {
        store.contacts.lists.replaceEmails(request.userId, id, body.contact_emails ?? []);
      }
      if (body.update_contact_phone_numbers === true) {
        store.contacts.lists.replacePhones(id, body.contact_phone_numbers ?? []);
      }
      return store.contacts.get(request.userId, id);
    });
    if (!row) throw notFound('contact', id);
    return ok({ contact: store.contacts.response(row) });
  });
}
