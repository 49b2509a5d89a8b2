/**
 * Every limit and enumerated format of the service, from docs/api-reference.md and docs/design.md.
 * The client, the pipeline's validator and the local service all read these constants.
 */
export const LIMITS = {
  websiteMaxLength: 2083,
  birthdayYearMin: 1900,
  birthdayYearMax: 2100,
  takeMin: 1,
  takeDefault: 20,
  /** docs/design.md: the local service's largest page; a continuation lists the target in such pages. */
  takeMax: 1000,
  /** The page a target that refuses `takeMax` is listed in: the largest most services take. */
  takeFallback: 100,
  /** docs/design.md: bodies over 5 MB get 413. */
  maxBodyBytes: 5 * 1024 * 1024,
  /** docs/design.md: most entries one contact's list (e-mails, phones, memberships...) holds on the local service. */
  maxListEntries: 1000,
  /** docs/design.md: default `--max-bulk` of the local service. */
  maxBulkDefault: 500,
  /** docs/design.md: idempotency keys are kept 24 hours. */
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  /** Year stored for a birthday without a year (docs/design.md, Normalization). */
  yearlessBirthdayYear: 1604,
} as const;

export const CONTACT_SOURCES = [
  'worknet_sync',
  'socialnet_import',
  'cal_ingest',
  'email_ingest',
  'web_import',
  'csv_import',
  'msgapp_sync',
  'devmsg_sync',
  'phone_calls_sync',
  'mobile',
  'mobile_import',
  'photonet_sync',
  'oauth_interaction',
] as const;

export const INTERACTION_PROVIDERS = ['PROVIDER_A', 'PROVIDER_B'] as const;

/** docs/design.md: reminder recurrence values. */
export const RECURRENCES = ['weekly', 'biweekly', 'monthly', 'quarterly', 'biannually', 'yearly'] as const;

/** docs/design.md: keep-in-touch frequency interval strings. */
export const FREQUENCIES = ['7 days', '14 days', '1 mon', '42 days', '3 mons', '6 mons', '1 year'] as const;

/** docs/design.md: custom field definition types. */
export const FIELD_TYPES = ['input', 'autocomplete', 'datepicker'] as const;

/** The social handle fields, under the service's neutral names. */
export const SOCIAL_FIELDS = [
  'worknet',
  'microblog',
  'socialnet',
  'photonet',
  'chatapp',
  'clipnet',
  'videonet',
] as const;

export type ContactSource = (typeof CONTACT_SOURCES)[number];
export type Recurrence = (typeof RECURRENCES)[number];
export type Frequency = (typeof FREQUENCIES)[number];
export type FieldType = (typeof FIELD_TYPES)[number];
export type SocialField = (typeof SOCIAL_FIELDS)[number];
