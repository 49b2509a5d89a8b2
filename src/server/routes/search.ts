import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../core/schemas/limits.js';
import { globalSearchQuerySchema, searchQuerySchema } from '../../core/schemas/search.js';
import { ok, parseOr400 } from '../envelope.js';
import { decodeCursor, page } from '../store/cursor.js';
import type { RouteContext } from './context.js';

/** E3 (`data.contacts`, `data.nextCursor`) and E4 (`data` array, `nextCursor` beside it). */
export function searchRoutes(app: FastifyInstance, { store }: RouteContext): void {
  app.get('/v1/contacts/search', async (request) => {
    const query = parseOr400(searchQuerySchema, request.query, 'query');
    const take = query.take ?? LIMITS.takeDefault;
    const rows = store.search.search(request.userId, {
      term: query.fullName,
      afterSeq: decodeCursor(query.cursor),
      limit: take + 1,
    });
    const { items, nextCursor } = page(rows, take);
    const contacts = items.map((row) => store.contacts.response(row));
    return ok(nextCursor === undefined ? { contacts } : { contacts, nextCursor });
  });

  app.get('/v1/search/contacts', async (request) => {
    const query = parseOr400(globalSearchQuerySchema, request.query, 'query');
    const take = query.take ?? LIMITS.takeDefault;
    const rows = store.search.search(request.userId, {
      term: query.searchQuery,
      exact: query.exactMatch === true,
      includeArchived: query.archived === true,
      hasGroups: query.has_groups,
      afterSeq: decodeCursor(query.cursor),
      limit: take + 1,
    });
    const { items, nextCursor } = page(rows, take);
    return ok(
      items.map((row) => store.contacts.response(row)),
      nextCursor,
    );
  });
}
