import type { ContactResponse, ContactWrite } from '../core/schemas/index.js';
import { ImportError } from '../core/errors/index.js';
import { normalizeText } from '../normalize/index.js';

/**
 * Answers are checked against what was asked where the answer can tell: a create's contacts by
 * position (the answer echoes each full name, and on the local service its e-mails), a search hit
 * by the e-mail searched for (when the answer carries e-mails; the contact answer of
 * docs/api-reference.md does not).
 */

type Sent = Pick<ContactWrite, 'full_name' | 'contact_emails'>;

/** The contact answer's e-mails, when it has them (the schema is loose: docs/api-reference.md shows none). */
const answeredEmails = (contact: ContactResponse): string[] | undefined => {
  const emails = (contact as { contact_emails?: unknown }).contact_emails;
  if (!Array.isArray(emails)) return undefined;
  return emails.flatMap((entry: unknown) => {
    const email = (entry as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? [email.trim().toLowerCase()] : [];
  });
};

/** A name as a service may store it: trimmed, inner whitespace collapsed, NFC, any case. */
const comparableName = (name: string | null | undefined): string => normalizeText(name)?.toLowerCase() ?? '';

/**
 * The create answered for `sent` must list the same contacts in the same order: the same count,
 * each with the full name sent, and (when the answer carries e-mails) the first e-mail sent.
 * Otherwise the ids would be recorded for the wrong people, and the next run would write one
 * person's data onto another's contact: ImportError('target_inconsistent'), thrown before the
 * ledger records any id of the answer.
 */
export const assertAnsweredAsSent = (
  sent: readonly Sent[],
  answered: readonly ContactResponse[],
  idempotencyKey: string,
): void => {
  const where = `the create under Idempotency-Key ${idempotencyKey}`;
  if (answered.length !== sent.length) {
    throw inconsistent(
      `the target answered ${answered.length} contacts for the ${sent.length} of ${where}; expected one per contact, in the order sent`,
      idempotencyKey,
    );
  }
  sent.forEach((contact, index) => {
    const answer = answered[index]!;
    const sentName = comparableName(contact.full_name);
    const nameDiffers = comparableName(answer.full_name) !== sentName;
    const firstEmail = contact.contact_emails?.[0]?.email.trim().toLowerCase();
    const emails = answeredEmails(answer);
    const emailMissing = firstEmail !== undefined && emails !== undefined && !emails.includes(firstEmail);
    if (!nameDiffers && !emailMissing) return;
    const what = nameDiffers
      ? `the full name ${JSON.stringify(answer.full_name ?? null)} where ${JSON.stringify(contact.full_name ?? null)} was sent`
      : `no e-mail ${firstEmail}, which was sent`;
    throw inconsistent(
      `the target answered contact #${index + 1} of ${where} (id ${answer.id}) with ${what}: the answer is not in the order sent, or not for these contacts; nothing of that answer was recorded`,
      idempotencyKey,
      answer.id,
    );
  });
};

/**
 * Whether a search hit holds the e-mail searched for: false when its answer lists e-mails and
 * none is that one (a search that is not exact matched something else, such as a full name that
 * is an e-mail), true otherwise (an answer without e-mails cannot be checked: trusted).
 */
export const holdsEmail = (contact: ContactResponse, email: string): boolean => {
  const emails = answeredEmails(contact);
  return emails === undefined || emails.includes(email.trim().toLowerCase());
};

const inconsistent = (message: string, idempotencyKey: string, id?: string): ImportError =>
  new ImportError('target_inconsistent', message, { idempotencyKey, ...(id ? { id } : {}) });
