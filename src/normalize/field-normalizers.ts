import { contactWriteSchema, SOCIAL_FIELDS, text, type SocialField } from '../core/schemas/index.js';
import type { IssueCode } from '../core/errors/codes.js';
import {
  normalizeDate,
  normalizeDateTime,
  normalizeHandle,
  normalizeText,
  normalizeWebsite,
  type Normalized,
} from './index.js';

/** How one scalar contact field is normalized before the write schema checks it. */
type FieldNormalizer = (value: unknown, options: { dateFormat?: string }) => Normalized<unknown> | undefined;

const ok = <T>(value: T): Normalized<T> => ({ ok: true, value });
const fail = (code: IssueCode, message: string): Normalized<never> => ({ ok: false, code, message });

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'x', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off']);

const toBoolean: FieldNormalizer = (value) => {
  if (typeof value === 'boolean') return ok(value);
  const text = normalizeText(value)?.toLowerCase();
  if (text === undefined) return undefined;
  if (TRUE_WORDS.has(text)) return ok(true);
  if (FALSE_WORDS.has(text)) return ok(false);
  return fail('invalid_value', `expected a yes/no value, got "${text}"`);
};

const toNumber: FieldNormalizer = (value) => {
  if (typeof value === 'number') return ok(value);
  const text = normalizeText(value);
  if (text === undefined) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? ok(number) : fail('invalid_value', `expected a number, got "${text}"`);
};

const toText: FieldNormalizer = (value) => {
  if (value === null) return ok(null);
  if (typeof value === 'object') return ok(value);
  const text = normalizeText(value);
  return text === undefined ? undefined : ok(text);
};

const viaText =
  (normalize: (text: string, options: { dateFormat?: string }) => Normalized<unknown>): FieldNormalizer =>
  (value, options) => {
    const text = normalizeText(value);
    return text === undefined ? undefined : normalize(text, options);
  };

const dateTimeField = viaText((text, { dateFormat }) => normalizeDateTime(text, dateFormat));

const BOOLEAN_FIELDS = ['starred', 'never_keep_in_touch', 'is_archived', 'ignore_merge'] as const;
const DATE_TIME_FIELDS = [
  'last_seen_at',
  'next_reminder_at',
  'msgapp_last_message_at',
  'devmsg_last_message_at',
  'worknet_last_message_at',
  'photonet_last_message_at',
  'mail_last_interaction_at',
  'cal_last_interaction_at',
  'phone_call_last_interaction_at',
] as const;

/** Address texts become `{formatted}` entries; entries already in the service's shape pass to the schema. */
const toAddresses: FieldNormalizer = (value) => {
  const addresses: unknown[] = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item === 'object' && item !== null) addresses.push(item);
    else {
      const formatted = normalizeText(item);
      if (formatted !== undefined) addresses.push({ formatted });
    }
  }
  return addresses.length === 0 ? undefined : ok(addresses);
};

const NORMALIZERS: Record<string, FieldNormalizer> = {
  website: viaText((text) => normalizeWebsite(text)),
  legacy_contact_addresses: toAddresses,
  birthday_year: toNumber,
  ...Object.fromEntries(BOOLEAN_FIELDS.map((f) => [f, toBoolean])),
  ...Object.fromEntries(DATE_TIME_FIELDS.map((f) => [f, dateTimeField])),
  ...Object.fromEntries(
    SOCIAL_FIELDS.map((f: SocialField) => [f, viaText((text) => normalizeHandle(f, text))]),
  ),
};

/** Normalizes one scalar field's value; undefined means "absent" (an empty cell). */
export const normalizeFieldValue = (
  field: string,
  value: unknown,
  options: { dateFormat?: string },
): Normalized<unknown> | undefined => (NORMALIZERS[field] ?? toText)(value, options);

/** The birthday field yields two write fields: `birthday`, and `birthday_year` when the year is known. */
export const normalizeBirthday = (
  value: unknown,
  dateFormat: string | undefined,
): Normalized<{ birthday: string; birthday_year?: number }> | undefined => {
  const text = normalizeText(value);
  if (text === undefined) return undefined;
  const parsed = normalizeDate(text, dateFormat);
  if (!parsed.ok) return parsed;
  const { date, yearless, year } = parsed.value;
  return ok(yearless || year === undefined ? { birthday: date } : { birthday: date, birthday_year: year });
};

const SHAPE = contactWriteSchema.shape as Record<
  string,
  { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } }
>;

/**
 * The write fields whose schema is the service's free `text` (an optional string, or null): any
 * string passes it, so a string value needs no schema run (a row has several such fields).
 */
const FREE_TEXT = new Set(
  Object.entries(contactWriteSchema.shape)
    .filter(([, schema]) => {
      const def = (schema as { _zod?: { def?: { type?: string; innerType?: unknown } } })._zod?.def;
      return def?.type === 'optional' && def.innerType === text;
    })
    .map(([field]) => field),
);
const PASSED = { ok: true } as const;

/** The fields `checkWriteField` passes without a schema run when their value is a string. */
export const freeTextFields = (): string[] => [...FREE_TEXT];

/** Checks one write field against the service's schema; the message says what the schema expected. */
export const checkWriteField = (
  field: string,
  value: unknown,
): { ok: true } | { ok: false; code: IssueCode; message: string } => {
  if (typeof value === 'string' && FREE_TEXT.has(field)) return PASSED;
  const schema = SHAPE[field];
  if (!schema)
    return { ok: false, code: 'invalid_value', message: `"${field}" is not a contact write field` };
  const result = schema.safeParse(value);
  if (result.success) return { ok: true };
  const message = result.error?.issues[0]?.message ?? 'invalid value';
  const tooLong = /too big|at most|<=/i.test(message) && typeof value === 'string';
  return { ok: false, code: tooLong ? 'value_too_long' : 'invalid_value', message: `${field}: ${message}` };
};
