import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type ValidatorFactory = NonNullable<CompilersFactory['buildValidator']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;

/** Requires a module as fastify itself does: from fastify's own folder. */
const fromFastify = (id: string): unknown =>
  createRequire(createRequire(import.meta.url).resolve('fastify'))(id);

/** The factory the compiler package `id` makes, made on the first call and then called. */
const onFirstCall = <Factory>(id: string): Factory => {
  type Made = (...args: unknown[]) => unknown;
  let made: Made | undefined;
  return ((...args: unknown[]) => {
    made ??= (fromFastify(id) as () => Made)();
    return made(...args);
  }) as Factory;
};

/**
 * fastify's own JSON-schema compilers (ajv for validation, fast-json-stringify for answers),
 * loaded the first time a route's schema asks for one: fastify's `schemaController` option, as its
 * documentation describes. Without it fastify loads both, and ajv with them, as each instance
 * starts, although no route of the service declares a JSON schema (bodies and queries are checked
 * with zod, envelope.ts). Each call makes one instance's pair, as fastify's default does. fastify
 * counts a factory given this way as custom, which only changes how it prepares a route's headers
 * schema: a route that declares one should pass its own validatorCompiler or drop this option.
 */
export const compilersOnFirstSchema = (): CompilersFactory => ({
  buildValidator: onFirstCall<ValidatorFactory>('@fastify/ajv-compiler'),
  buildSerializer: onFirstCall<SerializerFactory>('@fastify/fast-json-stringify-compiler'),
});
