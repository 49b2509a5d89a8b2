import { describe, expect, it } from 'vitest';
import { createContactsBody } from '../../../src/client/index.js';
import type { ContactResponse, ContactWrite } from '../../../src/core/schemas/index.js';
import { explainedByPending, showsAsWritten } from '../../../src/load/landed-creates.js';
import type { PendingCreate } from '../../../src/state/index.js';

const write = (i: number): ContactWrite => ({ full_name: `Person ${i}`, job_title: `Engineer ${i}` });

const pending = (key: string, from: number, count: number): PendingCreate => {
  const writes = Array.from({ length: count }, (_, k) => write(from + k));
  return {
    runId: 'run-1',
    idempotencyKey: key,
    keys: writes.map((_, k) => `email:p${from + k}@example.com`),
    hashes: writes.map((_, k) => `h${from + k}`),
    body: createContactsBody(writes),
  };
};

/** A contact answer as the target shows it (no e-mails). */
const listed = (w: ContactWrite, id = `id-${w.full_name}`): ContactResponse =>
  ({
    id,
    full_name: w.full_name ?? null,
    first_name: null,
    last_name: null,
    job_title: w.job_title ?? null,
    company: null,
  }) as ContactResponse;

const contactsOf = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => listed(write(from + k)));

describe('explainedByPending: are the contacts the ledger does not hold exactly whole pending chunks?', () => {
  const chunks = [pending('k0', 0, 3), pending('k1', 3, 3)];

  it('yes: none of them landed, and nothing else is there', () => {
    expect(explainedByPending([], chunks)).toBe(true);
  });

  it('yes: one chunk landed whole, the other not at all', () => {
    expect(explainedByPending(contactsOf(3, 3), chunks)).toBe(true);
  });

  it('no: a chunk there and one contact more (someone stored a person of the chunk that did not land)', () => {
    expect(explainedByPending([...contactsOf(3, 3), listed(write(0), 'foreign')], chunks)).toBe(false);
  });

  it('no: a landed chunk and a second contact for one of its people', () => {
    expect(explainedByPending([...contactsOf(3, 3), listed(write(4), 'foreign')], chunks)).toBe(false);
  });

  it('no: part of a chunk (a create is applied whole: those are someone else’s)', () => {
    expect(explainedByPending(contactsOf(0, 2), chunks)).toBe(false);
  });

  it('no: a contact that shows other values than the record writes', () => {
    const other = { ...listed(write(3)), job_title: 'Director 3' } as ContactResponse;
    expect(explainedByPending([other, ...contactsOf(4, 2)], chunks)).toBe(false);
    expect(showsAsWritten(other, write(3))).toBe(false);
    expect(showsAsWritten(listed(write(3)), write(3))).toBe(true);
  });
});
