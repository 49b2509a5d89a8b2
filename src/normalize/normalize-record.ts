import type { ContactEmail, ContactPhone, ContactWrite } from '../core/schemas/index.js';
import { RECURRENCES } from '../core/schemas/index.js';
import type { IssueCode } from '../core/errors/codes.js';
import {
  composeFullName,
  normalizeDate,
  normalizeDateTime,
  normalizeEmail,
  normalizeEmailLabel,
  normalizePhone,
  normalizePhoneLabel,
  normalizeText,
  splitFullName,
  type NameParts,
} from './index.js';
import { checkWriteField, normalizeBirthday, normalizeFieldValue } from './field-normalizers.js';
import { identityKey } from './identity.js';
import { RECORD_LIMITS } from './record-limits.js';
import { recordNotLoaded, valueLeftOut } from '../core/consequence.js';
import type { NamedCustomFieldValue, NormalizedReminder, RecordOutcome } from '../core/record.js';
import type { Issue, Severity, Stage } from '../core/types.js';
import type { DraftContact } from '../mapping/types.js';

export interface NormalizeContext {
  file: string;
  row: number;
  line: number;
  input: number;
  region?: string;
  dateFormat?: string;
  /** `--strict`: a value that would be dropped with a warning rejects the record instead. */
  strict: boolean;
  constants: Partial<ContactWrite>;
}

type Contact = Record<string, unknown>;

/**
 * normalize -> validate for one record. Never throws: a value that cannot be kept becomes a
 * warning (or, under --strict, an error that rejects the record); a record with no identity is
 * rejected. Only the record's own data is touched; references (groups, custom fields) stay names.
 */
export const normalizeRecord = (draft: DraftContact, ctx: NormalizeContext): RecordOutcome => {
  const issues: Issue[] = [];
  const note = noteInto(issues, ctx);
  const contact = writeFieldsOf(draft, ctx, note);
  const groups = uniqueTexts(draft.groups.map((g) => g.value));
  const customFields = normalizeCustomFields(draft, ctx.dateFormat, note);
  const reminders = normalizeReminders(draft, ctx.dateFormat, note);

  const key = identityKey(draft, contact);
  if (key === undefined) {
    note(
      'validate',
      '',
      '',
      'no_identity',
      'no e-mail, phone, name or key column to identify the record',
      'error',
    );
    return { ok: false, issues: sayWhatHappened(issues, false, ctx.strict) };
  }
  if (issues.some((i) => i.severity === 'error'))
    return { ok: false, issues: sayWhatHappened(issues, false, ctx.strict) };
  return {
    ok: true,
    issues: sayWhatHappened(issues, true, ctx.strict),
    record: {
      file: ctx.file,
      row: ctx.row,
      line: ctx.line,
      input: ctx.input,
      key,
      ...(draft.sourceId !== undefined ? { sources: [`source:${draft.sourceId}`] } : {}),
      contact,
      groups,
      customFields,
      reminders,
    },
  };
};

/** Notes a record's issues into `issues`, at the record's place; --strict makes a warning an error. */
const noteInto =
  (issues: Issue[], ctx: NormalizeContext): Note =>
  (stage, field, value, code, message, severity) => {
    issues.push({
      file: ctx.file,
      row: ctx.row,
      line: ctx.line,
      severity: severity ?? (ctx.strict ? 'error' : 'warning'),
      stage,
      field,
      value: typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
      code,
      message,
    });
  };

/** The contact's write fields: constants, names, e-mails, phones and the mapped fields, validated. */
const writeFieldsOf = (draft: DraftContact, ctx: NormalizeContext, note: Note): Contact => {
  const contact: Contact = {};
  for (const [field, value] of Object.entries(ctx.constants)) contact[field] = value;
  applyNames(draft, contact);

  const emails = normalizeEmails(draft, note);
  if (emails.length > 0) contact.contact_emails = emails;
  const phones = normalizePhones(draft, ctx.region, note);
  if (phones.length > 0) contact.contact_phone_numbers = phones;
  applyFields(draft, contact, ctx.dateFormat, note);

  // The write schema has the last word: whatever still fails it is dropped (or rejects, --strict).
  // The e-mail and phone lists built above are ContactEmail[] / ContactPhone[] by construction
  // (each element checked as it was made, test/unit/normalize/lists-schema.test.ts), so they skip
  // the schema run, a cost a dry run feels. A constant of the same field is still checked.
  for (const [field, value] of Object.entries(contact)) {
    if (value === emails || value === phones) continue;
    const check = checkWriteField(field, value);
    if (check.ok) continue;
    note('validate', sourceColumn(draft, field), value, check.code, check.message);
    delete contact[field];
  }
  return contact;
};

/** The draft's single-valued fields, normalized into `contact`; a birthday may set several. */
const applyFields = (
  draft: DraftContact,
  contact: Contact,
  dateFormat: string | undefined,
  note: Note,
): void => {
  for (const [field, { value, field: column }] of Object.entries(draft.fields)) {
    if (field === 'birthday') {
      const result = normalizeBirthday(value, dateFormat);
      if (result === undefined) continue;
      if (!result.ok) note('normalize', column, value, result.code, result.message);
      else Object.assign(contact, result.value);
      continue;
    }
    const result = normalizeFieldValue(field, value, { dateFormat });
    if (result === undefined) continue;
    if (!result.ok) note('normalize', column, value, result.code, result.message);
    else contact[field] = result.value;
  }
};

/** Each message ends by saying what happened to the value or the record. */
const sayWhatHappened = (issues: Issue[], recordLoaded: boolean, strict: boolean): Issue[] => {
  for (const issue of issues) {
    if (issue.severity === 'warning') issue.message = valueLeftOut(issue.message, recordLoaded);
    else if (issue.code === 'no_identity') issue.message = recordNotLoaded(issue.message);
    else
      issue.message = recordNotLoaded(
        issue.message,
        strict ? '--strict rejects a record with a value it would leave out' : undefined,
      );
  }
  return issues;
};

type Note = (
  stage: Stage,
  field: string,
  value: unknown,
  code: IssueCode,
  message: string,
  severity?: Severity,
) => void;

const applyNames = (draft: DraftContact, contact: Contact): void => {
  const given: NameParts = {};
  for (const part of ['prefix', 'first', 'middle', 'last', 'suffix', 'nickname'] as const) {
    const text = normalizeText(draft.name[part]?.value);
    if (text !== undefined) given[part] = text;
  }
  let full = normalizeText(draft.name.full?.value);
  if (full !== undefined && given.first === undefined && given.last === undefined) {
    const split = splitFullName(full);
    if (split.first !== undefined) given.first = split.first;
    if (split.last !== undefined) given.last = split.last;
    // "Last, First" is how some exports write the display name; the service wants it read naturally.
    if (full.includes(',')) full = composeFullName(split) ?? full;
  }
  if (full === undefined) full = composeFullName(given);
  if (full !== undefined) contact.full_name = full;
  if (given.first !== undefined) contact.first_name = given.first;
  if (given.last !== undefined) contact.last_name = given.last;
};

/**
 * Once a record holds `limit` values of a list, the values after it are left out, with one warning
 * for all of them: they are not even normalized (a row of 20,000 e-mails costs no more than 50).
 */
const noteLeftOut = (
  limit: number,
  rest: { value: string; field: string }[],
  what: 'e-mails' | 'phone numbers',
  note: Note,
): void => {
  const left = rest.filter(({ value }) => normalizeText(value) !== undefined);
  if (left.length > 0) {
    note(
      'normalize',
      left[0]!.field,
      left[0]!.value,
      'too_many_values',
      `${left.length} more ${what} left out: a record keeps its first ${limit}; the contact was loaded with those`,
    );
  }
};

const normalizeEmails = (draft: DraftContact, note: Note): ContactEmail[] => {
  const emails: ContactEmail[] = [];
  const seen = new Set<string>();
  for (const [index, { value, field, label }] of draft.emails.entries()) {
    if (emails.length >= RECORD_LIMITS.emails) {
      noteLeftOut(RECORD_LIMITS.emails, draft.emails.slice(index), 'e-mails', note);
      break;
    }
    const text = normalizeText(value);
    if (text === undefined) continue;
    const result = normalizeEmail(text);
    if (!result.ok) {
      note('normalize', field, value, result.code, result.message);
      continue;
    }
    if (seen.has(result.value)) continue;
    seen.add(result.value);
    emails.push({ email: result.value, label: normalizeEmailLabel(label), ranking: emails.length + 1 });
  }
  return emails;
};

const normalizePhones = (draft: DraftContact, region: string | undefined, note: Note): ContactPhone[] => {
  const phones: ContactPhone[] = [];
  const seen = new Set<string>();
  for (const [index, { value, field, label }] of draft.phones.entries()) {
    if (phones.length >= RECORD_LIMITS.phones) {
      noteLeftOut(RECORD_LIMITS.phones, draft.phones.slice(index), 'phone numbers', note);
      break;
    }
    const text = normalizeText(value);
    if (text === undefined) continue;
    const result = normalizePhone(text, region);
    if (!result.ok) {
      note('normalize', field, value, result.code, result.message);
      continue;
    }
    if (seen.has(result.value.phone_number_sanitized)) continue;
    seen.add(result.value.phone_number_sanitized);
    // Keys in sorted order, as the load stage writes them (core/key-order.ts): nothing to reorder.
    const { country_code, phone_number, phone_number_sanitized } = result.value;
    const ranking = phones.length + 1;
    const phoneLabel = normalizePhoneLabel(label);
    phones.push(
      country_code === undefined
        ? { label: phoneLabel, phone_number, phone_number_sanitized, ranking }
        : { country_code, label: phoneLabel, phone_number, phone_number_sanitized, ranking },
    );
  }
  return phones;
};

const normalizeCustomFields = (
  draft: DraftContact,
  dateFormat: string | undefined,
  note: Note,
): NamedCustomFieldValue[] => {
  const values: NamedCustomFieldValue[] = [];
  const seen = new Set<string>();
  for (const custom of draft.customFields) {
    let text = normalizeText(custom.value);
    if (text === undefined || seen.has(custom.name)) continue;
    if (custom.fieldType === 'datepicker') {
      const parsed = normalizeDate(text, custom.dateFormat ?? dateFormat);
      if (!parsed.ok) {
        note('normalize', custom.field, custom.value, parsed.code, parsed.message);
        continue;
      }
      text = parsed.value.date;
    }
    seen.add(custom.name);
    const value: NamedCustomFieldValue = { name: custom.name, value: text, fieldType: custom.fieldType };
    if (custom.categories) value.categories = custom.categories;
    values.push(value);
  }
  return values;
};

const normalizeReminders = (
  draft: DraftContact,
  dateFormat: string | undefined,
  note: Note,
): NormalizedReminder[] => {
  const reminders: NormalizedReminder[] = [];
  for (const reminder of draft.reminders) {
    const text = normalizeText(reminder.text.value);
    if (text === undefined) continue;
    const dueText = normalizeText(reminder.due?.value);
    if (dueText === undefined) {
      note(
        'normalize',
        reminder.due?.field ?? reminder.text.field,
        '',
        'invalid_reminder',
        'a reminder needs a due date',
      );
      continue;
    }
    const due = normalizeDateTime(dueText, reminder.dateFormat ?? dateFormat);
    if (!due.ok) {
      note('normalize', reminder.due?.field ?? '', dueText, 'invalid_reminder', `due date: ${due.message}`);
      continue;
    }
    const built: NormalizedReminder = { text, due_at_date: due.value };
    const recurrence = normalizeText(reminder.recurrence?.value)?.toLowerCase();
    if (recurrence !== undefined) {
      if ((RECURRENCES as readonly string[]).includes(recurrence)) built.recurrence = recurrence;
      else
        note(
          'normalize',
          reminder.recurrence?.field ?? '',
          recurrence,
          'invalid_reminder',
          `recurrence must be one of ${RECURRENCES.join(', ')}; kept the reminder without it`,
        );
    }
    reminders.push(built);
  }
  return reminders;
};

const uniqueTexts = (values: string[]): string[] => {
  const out = new Set<string>();
  for (const value of values) {
    const text = normalizeText(value);
    if (text !== undefined) out.add(text);
  }
  return [...out];
};

/** The column a write field came from, for issue rows; constants and derived fields name themselves. */
const sourceColumn = (draft: DraftContact, field: string): string => {
  if (field === 'birthday_year') return draft.fields.birthday?.field ?? field;
  return draft.fields[field]?.field ?? field;
};
