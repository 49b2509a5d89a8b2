import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { customFieldCreateBodySchema, customFieldUpdateBodySchema } from '../../core/schemas/custom-field.js';
import { groupCreateBodySchema, groupUpdateBodySchema } from '../../core/schemas/group.js';
import { reminderCreateBodySchema, reminderUpdateBodySchema } from '../../core/schemas/reminder.js';
import { notFound, ok, parseOr400 } from '../envelope.js';
import type { Store } from '../store/index.js';
import { pathId, type RouteContext } from './context.js';
import { idempotentCreate } from './idempotent.js';

/** The store side of a resource created by POST and changed by PUT. */
interface ResourceStore<C, U, R> {
  create(userId: number, input: C): R;
  update(userId: number, id: string, input: U): R | undefined;
}

/**
 * One resource with a create and an update endpoint: bodies and answers wrap the resource under
 * `key` (`{"group": {...}}`), the PUT's id is named `idName` in a 400 and `what` in a 404.
 */
interface ResourceRoute<K extends string, C, U, R> {
  path: string;
  key: K;
  idName: string;
  what: string;
  createBody: z.ZodType<Record<K, C>>;
  updateBody: z.ZodType<Record<K, U>>;
  store: (store: Store) => ResourceStore<C, U, R>;
}

type Registrar = (app: FastifyInstance, context: RouteContext) => void;

const resourceRoute =
  <K extends string, C, U, R>(route: ResourceRoute<K, C, U, R>): Registrar =>
  (app, context) =>
    registerResource(app, context, route);

/**
 * E5/E6 reminders (linked contacts must be the user's own: 400 naming the element otherwise),
 * E7/E8 groups (a parent or member must be the user's own), E9/E10 custom fields (field_type
 * defaults to `input`).
 */
const RESOURCES: Registrar[] = [
  resourceRoute({
    path: '/v1/reminders',
    key: 'reminder',
    idName: 'reminderId',
    what: 'reminder',
    createBody: reminderCreateBodySchema,
    updateBody: reminderUpdateBodySchema,
    store: (store) => store.reminders,
  }),
  resourceRoute({
    path: '/v1/groups',
    key: 'group',
    idName: 'groupId',
    what: 'group',
    createBody: groupCreateBodySchema,
    updateBody: groupUpdateBodySchema,
    store: (store) => store.groups,
  }),
  resourceRoute({
    path: '/v1/custom-fields',
    key: 'custom_field',
    idName: 'customFieldId',
    what: 'custom field',
    createBody: customFieldCreateBodySchema,
    updateBody: customFieldUpdateBodySchema,
    store: (store) => store.customFields,
  }),
];

function registerResource<K extends string, C, U, R>(
  app: FastifyInstance,
  context: RouteContext,
  route: ResourceRoute<K, C, U, R>,
): void {
  const { store } = context;
  const resources = route.store(store);
  const wrap = (value: R) => ({ [route.key]: value }) as Record<K, R>;

  app.post(`${route.path}/`, async (request, reply) => {
    const body = parseOr400(route.createBody, request.body, 'body');
    return idempotentCreate(context, request, reply, () =>
      wrap(resources.create(request.userId, body[route.key])),
    );
  });

  app.put(`${route.path}/:id`, async (request) => {
    const id = pathId(request, route.idName);
    const body = parseOr400(route.updateBody, request.body, 'body');
    const updated = store.transaction(() => resources.update(request.userId, id, body[route.key]));
    if (!updated) throw notFound(route.what, id);
    return ok(wrap(updated));
  });
}

/** The create (POST) and update (PUT) endpoints of reminders, groups and custom fields. */
export function resourceRoutes(app: FastifyInstance, context: RouteContext): void {
  for (const register of RESOURCES) register(app, context);
}
