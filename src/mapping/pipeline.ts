import type { ContactWrite } from '../core/schemas/index.js';
import type { Dialect } from '../readers/types.js';
import type { PipelineFile } from './schema.js';

/** A loaded, checked pipeline file: what the reader, the mapper and the normalizer need. */
export interface Pipeline {
  name: string;
  description: string;
  /** Absolute path of the YAML file. */
  file: string;
  /** Passed to the reader; an `auto` encoding is left out so the reader detects it. */
  dialect: Dialect;
  /** Default phone region, ISO 3166 alpha-2. */
  region?: string;
  /** Date format for birthdays and other dates (normalizer tokens: YYYY MMM MM M DD D). */
  dateFormat?: string;
  /** Splits cells that hold several values (e-mails, phones, groups), e.g. ' ::: '. */
  multiValueSeparator?: string;
  /** Identity columns. */
  key?: string[];
  /** Write fields set on every record, checked against the contact write schema. */
  constants: Partial<ContactWrite>;
  /** Cell texts that mean "no value" (e.g. `0/0/00` birthdays of the mail client). */
  emptyValues: string[];
  /** Columns whose absence from a CSV header is warned about whatever `missingColumns` says. */
  required: string[];
  /** `warn`: every mapped column missing from the header is an `unknown_column` warning. */
  missingColumns: 'warn' | 'ignore';
  /** The mapping sections as checked (snake_case keys, as in the file). */
  spec: PipelineFile;
}

export interface PipelineSummary {
  name: string;
  description: string;
  file: string;
  /** The products' exports it reads (`also_reads`), e.g. "Google Contacts CSV". */
  alsoReads: string[];
}
