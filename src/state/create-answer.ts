import { ImportError } from '../core/errors/index.js';

/**
 * docs/design.md "Target answers": the ids a create answered must be one per contact, distinct, and new
 * to the ledger (an id that already belongs to another identity would merge two people into one
 * contact on the next update). Otherwise the target (or something between) is not answering for
 * the contacts sent: ImportError('target_inconsistent'), and the ledger records none of the ids.
 * `ownerOf(id)` is the identity key the ledger already maps to that id, if any.
 */
export const assertCreateAnswer = (
  answer: { idempotencyKey: string; ids: readonly string[]; keys: readonly string[] },
  ownerOf: (id: string) => string | undefined,
): void => {
  const { idempotencyKey, ids, keys } = answer;
  const where = `the create under Idempotency-Key ${idempotencyKey}`;
  if (ids.length !== keys.length) {
    throw inconsistent(
      `the target answered ${ids.length} ids for the ${keys.length} contacts of ${where}; expected one id per contact`,
      idempotencyKey,
    );
  }
  const seen = new Map<string, number>();
  ids.forEach((id, index) => {
    const first = seen.get(id);
    if (first !== undefined) {
      throw inconsistent(
        `the target answered id ${id} for different contacts (the ${ordinal(first)} and the ${ordinal(index)} of ${where}); nothing of that answer was recorded`,
        idempotencyKey,
        id,
      );
    }
    seen.set(id, index);
    const owner = ownerOf(id);
    if (owner !== undefined && owner !== keys[index]) {
      throw inconsistent(
        `the target answered id ${id} for different contacts (the ${ordinal(index)} of ${where}, and a contact loaded before); nothing of that answer was recorded`,
        idempotencyKey,
        id,
      );
    }
  });
};

const ordinal = (index: number): string => `contact #${index + 1}`;

const inconsistent = (message: string, idempotencyKey: string, id?: string): ImportError =>
  new ImportError('target_inconsistent', message, { idempotencyKey, ...(id ? { id } : {}) });
