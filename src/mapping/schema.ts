import { z } from 'zod';
import { contactWriteSchema, FIELD_TYPES } from '../core/schemas/index.js';
import { MAPPABLE_FIELDS } from './field-names.js';

export { LIST_FIELDS, MAPPABLE_FIELDS, NAME_PARTS, type NamePart } from './field-names.js';

/**
 * The schema of a pipeline file (docs/pipelines.md documents every key). Objects are strict so a
 * misspelt key is an error naming it, not a silently ignored line.
 */

/** One column, or alternatives tried in order (the first present, non-empty one wins). */
const columnRef = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error: 'expected a column name or a list of column names',
});

const DATE_FORMAT = /^(?:YYYY|MMM|MM|M|DD|D|[ ./,-])+$/;

/** Normalizer date tokens: YYYY MMM MM M DD D, separated by space . / , or -. */
const dateFormat = z
  .string()
  .refine((format) => DATE_FORMAT.test(format) && format.includes('D') && format.includes('M'), {
    message: 'expected a date format of the tokens YYYY, MMM, MM, M, DD, D and separators (e.g. MM/DD/YYYY)',
  });

/** `false` turns splitting off for one column; a string overrides the source's separator. */
const separator = z.union([z.string().min(1), z.literal(false)]);

const sourceSchema = z.strictObject({
  format: z.enum(['csv', 'tsv', 'json', 'ndjson', 'xlsx', 'vcard']).optional(),
  sheet: z.string().min(1).optional(),
  delimiter: z.string().length(1, { message: 'expected one character (use "\\t" for a tab)' }).optional(),
  encoding: z.enum(['auto', 'utf-8', 'utf-16le', 'utf-16be', 'windows-1252']).default('auto'),
  skip_lines: z.number().int().min(0).default(0),
  multi_value_separator: z.string().min(1).optional(),
  empty_values: z.array(z.string()).default([]),
  missing_columns: z.enum(['warn', 'ignore']).default('warn'),
});

const namePartsSchema = z.strictObject({
  full: columnRef.optional(),
  first: columnRef.optional(),
  middle: columnRef.optional(),
  last: columnRef.optional(),
  prefix: columnRef.optional(),
  suffix: columnRef.optional(),
  nickname: columnRef.optional(),
});

const fieldsSchema = z.strictObject(
  Object.fromEntries(MAPPABLE_FIELDS.map((field) => [field, columnRef.optional()])) as Record<
    string,
    z.ZodOptional<typeof columnRef>
  >,
);

/** An e-mail or phone column (or a `{n}` numbered family of them). */
const contactPointSchema = z.strictObject({
  column: z.string().min(1),
  label: z.string().min(1).optional(),
  label_column: columnRef.optional(),
  separator: separator.optional(),
  value_key: z.string().min(1).optional(),
  label_key: z.string().min(1).optional(),
});

const groupSourceSchema = z.strictObject({
  column: columnRef,
  separator: separator.optional(),
  drop: z.array(z.string()).default([]),
  starred: z.string().min(1).optional(),
  strip_prefix: z.string().min(1).optional(),
});

const customFieldSourceSchema = z
  .strictObject({
    name: z.string().trim().min(1).optional(),
    column: columnRef.optional(),
    column_prefix: z.string().min(1).optional(),
    from_object: z.string().min(1).optional(),
    field_type: z.enum(FIELD_TYPES).default('input'),
    categories: z.array(z.string().min(1)).optional(),
    date_format: dateFormat.optional(),
  })
  .superRefine((entry, ctx) => {
    const forms = [entry.column, entry.column_prefix, entry.from_object].filter((v) => v !== undefined);
    if (forms.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `expected exactly one of column, column_prefix or from_object, got ${forms.length}`,
      });
    if (entry.name !== undefined && entry.column === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'name goes with column (prefix and object forms take names from the data)',
      });
    if (entry.column !== undefined && entry.name === undefined && Array.isArray(entry.column))
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'name is required when column lists alternatives',
      });
  });

const reminderSourceSchema = z.strictObject({
  list: z.string().min(1).optional(),
  text: z.string().min(1),
  due: z.string().min(1).optional(),
  recurrence: z.string().min(1).optional(),
  date_format: dateFormat.optional(),
});

export const pipelineFileSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, { message: 'expected lowercase letters, digits and dashes' })
    .optional(),
  description: z.string().default(''),
  /** The products' exports this pipeline reads, by their usual names (shown by `pipelines`). */
  also_reads: z.array(z.string().min(1)).default([]),
  source: sourceSchema.prefault({}),
  region: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'expected an ISO 3166 alpha-2 region in capitals, e.g. US' })
    .optional(),
  date_format: dateFormat.optional(),
  key: z.array(z.string().min(1)).min(1).optional(),
  /**
   * The column holding the source product's own id of the record (a CRM's record id, a vCard's
   * UID): an identity the ledger keeps against the contact, so the record is found again when
   * its e-mail changes. Not the key: records sharing an e-mail still merge.
   */
  source_id: columnRef.optional(),
  required: z.array(z.string().min(1)).default([]),
  constants: contactWriteSchema.default({}),
  name_parts: namePartsSchema.default({}),
  fields: fieldsSchema.default({}),
  emails: z.array(contactPointSchema).default([]),
  phones: z.array(contactPointSchema).default([]),
  groups: z.array(groupSourceSchema).default([]),
  custom_fields: z.array(customFieldSourceSchema).default([]),
  reminders: z.array(reminderSourceSchema).default([]),
});

export type ColumnRef = z.infer<typeof columnRef>;
export type PipelineFile = z.output<typeof pipelineFileSchema>;
export type ContactPointSource = z.output<typeof contactPointSchema>;
export type GroupSource = z.output<typeof groupSourceSchema>;
export type CustomFieldSource = z.output<typeof customFieldSourceSchema>;
export type ReminderSource = z.output<typeof reminderSourceSchema>;
export type NameParts = z.output<typeof namePartsSchema>;
