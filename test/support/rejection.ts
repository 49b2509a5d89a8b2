import { expect } from 'vitest';

/** The error `promise` rejects with, which must be an instance of `type` (else the test fails). */
export async function rejectionAs<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
