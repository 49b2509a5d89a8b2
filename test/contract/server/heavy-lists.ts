import { LIMITS } from '../../../src/core/schemas/limits.js';

/** The most e-mails (or phones, ...) one contact keeps. */
export const CAP = LIMITS.maxListEntries;

export const emails = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@list.test` }));

/** An E1 body of 500 elements on one contact, each with `perElement` e-mails tagged `<tag><k>`. */
export const updatesOfOne = (contactId: string, perElement: number, tag: string) =>
  Array.from({ length: 500 }, (_, k) => ({
    contactId,
    data: { contact_emails: emails(perElement, `${tag}${k}`) },
  }));

/** An E2 body of one contact with 20,000 e-mails. */
export const hugeContact = () => ({
  contacts: [{ full_name: 'Huge', contact_emails: emails(20_000, 'huge') }],
});
